// t/unit/derivative/derivative.c: the analytic Jacobians of lib/derivative/derivative.c and
// lib/derivative/derivative_constraint.c against a clean central difference of mj_step computed
// here (a step per column from 1e-6 max(1, |x_c|), Richardson-extrapolated), on a pendulum, a
// double pendulum, a ball joint, a floating chain with contacts disabled and an actuated model
// (filter, filterexact, integrator dynamics; affine gains and biases; a fixed tendon), under Euler,
// implicit, implicitfast and RK4; through the constraint solve: a joint limit and friction loss,
// spheres, capsules, boxes, cylinders and meshes on a plane and spheres and capsules against each
// other (pyramidal and elliptic cones, condim 1 to 6), joint, tendon, connect and weld equalities,
// CG and PGS against Newton, the general convex solver's contacts (polytopes on EPA's facets, a
// capsule on a mesh's face; the ideal contacts of a sphere and a capsule on ellipsoids), four
// solids on a height field, corpus robots along trajectories; an exact case; refusals; the counter.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "engine/collision.h"
#include "derivative/derivative.h"
#include "derivative_common.h"

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

// A, B by central differences of mj_step, the step chosen per column: column c moves x_c (or
// u) by +-eps and +-eps/2, eps = 1e-6 max(1, |value|) (quaternion dofs 1e-6), measures x' in
// the tangent space of the nominal next state and extrapolates the two (Richardson:
// (4 D(eps/2) - D(eps)) / 3, the eps^2 error gone); when the two differ by more than 1e-6
// max(1, |entry|) (the step bends sharply within eps: beside a contact just touching) eps
// shrinks tenfold, down to 1e-8.  *event (when not NULL) gets 1 when a perturbed state has
// other constraint rows or row states than the nominal one (a contact event within eps), 2
// when no step gave agreeing differences (a kink within 1e-8: a contact's distance crossing
// 0, an impedance breakpoint): there the difference is no reference
static void centralFD(const mjModel* m, mjData* d, mjtNum* A, mjtNum* B, int* event) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ndx = 2 * nv + na;
  mjtNum q0[nq], v0[nv], a0[na + 1], u0[nu + 1], q[nq], v[nv], a[na + 1], u[nu + 1];
  mjtNum qn[nq], vn[nv], an[na + 1], qp[nq], x[4][ndx];
  mju_copy(q0, d->qpos, nq);
  mju_copy(v0, d->qvel, nv);
  mju_copy(a0, d->act, na);
  mju_copy(u0, d->ctrl, nu);
  step(m, d, q0, v0, a0, u0, qn, vn, an);
  int nefc = d->nefc, type[nefc + 1], state[nefc + 1];
  memcpy(type, d->efc_type, sizeof(int) * nefc);
  memcpy(state, d->efc_state, sizeof(int) * nefc);
  if (event) *event = 0;
  for (int c = 0; c < ndx + nu; c++) {
    mjtNum scale = columnScale(m, c, q0, v0, a0, u0);
    int agree = 0;
    for (mjtNum eps = 1e-6 * scale; !agree && eps > 5e-9 * scale; eps /= 10) {
      // x' at +eps, -eps, +eps/2, -eps/2
      for (int s = 0; s < 4; s++) {
        mjtNum h = (s % 2 ? -eps : eps) / (s < 2 ? 1 : 2);
        mju_copy(q, q0, nq);
        mju_copy(v, v0, nv);
        mju_copy(a, a0, na);
        mju_copy(u, u0, nu);
        perturb(m, c, h, q, v, a, u);
        step(m, d, q, v, a, u, qp, x[s] + nv, x[s] + 2 * nv);
        if (event && (d->nefc != nefc || memcmp(type, d->efc_type, sizeof(int) * nefc) ||
                      memcmp(state, d->efc_state, sizeof(int) * nefc)))
          *event |= 1;
        mj_differentiatePos(m, x[s], 1, qn, qp);
      }
      agree = 1;
      for (int r = 0; r < ndx; r++) {
        mjtNum d1 = (x[0][r] - x[1][r]) / (2 * eps), d2 = (x[2][r] - x[3][r]) / eps;
        mjtNum col = (4 * d2 - d1) / 3;
        agree &= fabs(d1 - d2) <= 1e-6 * fmax(1, fabs(d2));
        if (c < ndx) A[r * ndx + c] = col;
        else B[r * nu + c - ndx] = col;
      }
    }
    if (event && !agree) *event |= 2;
  }
  mju_copy(d->qpos, q0, nq);
  mju_copy(d->qvel, v0, nv);
  mju_copy(d->act, a0, na);
  mju_copy(d->ctrl, u0, nu);
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
  cr_assert_eq(mjd_transitionSmooth(m, d, A, B, NULL, NULL, err, sizeof(err)), 0, "%s", err);
  centralFD(m, d, Af, Bf, NULL);
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

// MuJoCo's muscles (gain, bias and dynamics) on the double pendulum's hinges and a fixed
// tendon: force-length on both sides of its peak, force-velocity lengthening and shortening,
// the passive force past L = 1 (the tendon's), activation and deactivation, one blended by
// tausmooth, one with actearly; the implicit integrators' matrix holds the force-velocity
// slope (its own slopes by length, velocity and activation)
static const char* MUSCLES =
    "<mujoco><option timestep='0.005'/><worldbody><body pos='0 0 1'>"
    "<joint name='a' axis='0 1 0' damping='0.1'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<body pos='0 0 -0.6'><joint name='b' axis='1 0 0'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/></body></body>"
    "<body pos='1 0 1'><joint name='d' axis='0 0 1' damping='0.05'/>"
    "<inertial pos='0.2 0 0' mass='0.6' diaginertia='0.01 0.01 0.01'/></body></worldbody>"
    "<tendon><fixed name='t'><joint joint='a' coef='1'/><joint joint='d' coef='-0.5'/>"
    "</fixed></tendon><actuator>"
    "<muscle joint='a' ctrlrange='0 1' lengthrange='-0.6 0.6' force='20'/>"
    "<muscle joint='b' ctrlrange='0 1' lengthrange='-1 1' force='15' timeconst='0.02 0.06'"
    " actearly='true'/>"
    "<muscle tendon='t' ctrlrange='0 1' lengthrange='-0.4 0.2' force='30' tausmooth='0.3'/>"
    "</actuator></mujoco>";

// activations inside (0, 1), controls above the first and below the other two
static void muscleInputs(const mjModel* m, mjData* d) {
  static const mjtNum act[3] = {0.3, 0.6, 0.45}, ctrl[3] = {0.8, 0.2, 0.35};
  (void)m;
  mju_copy(d->act, act, 3);
  mju_copy(d->ctrl, ctrl, 3);
}

Test(derivative, muscles) {
  for (int integ = 0; integ < 4; integ++) checkAt("muscles", MUSCLES, integ, muscleInputs);
}

// the spatial tendon model (derivative_common.h): the tendon turning with q (dJ'/dq f and
// J' fv dJ/dq v; the implicit integrators' D, fv J'J, turning too) under every integrator
Test(derivative, spatial_tendon_forces) {
  char xml[2048];
  snprintf(xml, sizeof(xml), SPATIAL_FMT, "", "");
  for (int integ = 0; integ < 4; integ++) checkAt("spatial", xml, integ, spatialInputs);
}

// polynomial springs and dampers (stiffness="k k1 k2", damping="b b1 b2") on a hinge, a slide,
// a ball and a free joint, a fixed and a spatial tendon: the forces' slopes by q and v, and the
// dampers' slopes that Euler's and the implicit integrators' matrices hold changing with v (and
// with q along the spatial tendon) under every integrator
static const char* POLY =
    "<mujoco><option timestep='0.005'/><worldbody><site name='s0' pos='0.4 0 1.3'/>"
    "<body pos='0 0 1'><joint name='a' axis='0 1 0' stiffness='2 -1 3' springref='0.2'"
    " damping='0.1 0.3 0.2'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<site name='s1' pos='0 0 -0.4'/>"
    "<body pos='0 0 -0.6'><joint name='b' type='slide' axis='1 0 0' stiffness='20 5 40'"
    " springref='-0.1' damping='0.2 0.5 0.3'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/>"
    "<body pos='0 0 -0.3'><joint type='ball' stiffness='1 -0.5 2' damping='0.02 0.03 0.01'/>"
    "<inertial pos='0.1 0 -0.1' mass='0.5' diaginertia='0.01 0.02 0.015'/></body></body></body>"
    "<body pos='1 0 1'><joint type='free' stiffness='1 2 1' damping='0.05 0.02 0.01'/>"
    "<inertial pos='0 0 0' mass='1' diaginertia='0.02 0.03 0.04'/></body></worldbody>"
    "<tendon><fixed stiffness='3 2 5' damping='0.2 0.4 0.1' springlength='0.05'>"
    "<joint joint='a' coef='1'/><joint joint='b' coef='-0.5'/></fixed>"
    "<spatial stiffness='10 -4 20' damping='0.3 0.2 0.1' springlength='0.1'><site site='s0'/>"
    "<site site='s1'/></spatial></tendon></mujoco>";

Test(derivative, poly_springs_dampers) {
  for (int integ = 0; integ < 4; integ++) check("poly", POLY, integ);
}

// actuator damping (polynomial) and armature passed on, times gear^2, to a hinge (two
// actuators), a slide and a fixed tendon (armature too), a spatial tendon (damping only:
// armature on it is not differentiated): the same slopes as the joints' and tendons' own
static const char* ACTDAMP =
    "<mujoco><option timestep='0.005'/><worldbody><site name='s0' pos='0.4 0 1.3'/>"
    "<body pos='0 0 1'><joint name='a' axis='0 1 0' damping='0.05'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<site name='s1' pos='0 0 -0.4'/>"
    "<body pos='0 0 -0.6'><joint name='b' type='slide' axis='1 0 0'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/></body></body>"
    "</worldbody>"
    "<tendon><fixed name='f'><joint joint='a' coef='1'/><joint joint='b' coef='-0.5'/></fixed>"
    "<spatial name='sp'><site site='s0'/><site site='s1'/></spatial></tendon>"
    "<actuator><motor joint='a' gear='2' damping='0.1 0.3 0.2' armature='0.05'/>"
    "<position joint='a' gear='1.5' kp='4' damping='0.2' armature='0.02'/>"
    "<motor joint='b' gear='-3' damping='0.05 0.1 0.2' armature='0.01'/>"
    "<motor tendon='f' gear='0.7' damping='0.2 0.5 0.3' armature='0.03'/>"
    "<motor tendon='sp' gear='1.3' damping='0.3 0.2 0.1'/></actuator></mujoco>";

Test(derivative, actuator_damping_armature) {
  for (int integ = 0; integ < 4; integ++) check("actdamp", ACTDAMP, integ);
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

// the actuated model with joint a's actuator force clamped by its actfrcrange (0.05: beyond
// the forces at the state, so a's rows lose their actuator slopes) and joint d's range
// wide (not clamping)
Test(derivative, actuated_actfrcrange) {
  char xml[4096];
  const char* a = strstr(ACTUATED, "damping='0.1'/>");
  const char* dj = strstr(ACTUATED, "damping='0.05'/>");
  snprintf(xml, sizeof(xml), "%.*s actuatorfrcrange='-0.05 0.05' %.*s "
           "actuatorfrcrange='-9 9' %s", (int)(a - ACTUATED), ACTUATED, (int)(dj - a), a, dj);
  mjModel* m = load(xml, mjINT_EULER);
  mjData* d = mj_makeData(m);
  setState(m, d);
  mj_forward(m, d);
  cr_assert(fabs(d->qfrc_actuator[0]) == 0.05, "joint a not clamped: %g", d->qfrc_actuator[0]);
  mj_deleteData(d);
  mj_deleteModel(m);
  check("actfrc", xml, mjINT_EULER);
  check("actfrc", xml, mjINT_IMPLICITFAST);
  check("actfrc", xml, mjINT_RK4);
}

// gravity compensation on a floating chain (a ball and two hinges below a free body): whole,
// partial, and routed through the actuators of joints c (unclamped) and b (its actfrcrange
// clamping); xfrc_applied on two bodies (adjust)
static const char* GRAVCOMP =
    "<mujoco><option timestep='0.005'/><worldbody><body pos='0 0 1' gravcomp='0.5'>"
    "<freejoint/><inertial pos='0.1 0 0' mass='1.2' diaginertia='0.03 0.02 0.02'/>"
    "<body pos='0.2 0 0' gravcomp='1'><joint name='a' type='ball'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/>"
    "<body pos='0 0 -0.4' gravcomp='0.7'><joint name='b' axis='1 0 0' actuatorgravcomp='true'"
    " actuatorfrcrange='-0.2 0.2'/>"
    "<inertial pos='0.05 0 -0.1' mass='0.5' diaginertia='0.004 0.003 0.002'/>"
    "<body pos='0 0.1 -0.2' gravcomp='1'><joint name='c' axis='0 1 1' actuatorgravcomp='true'/>"
    "<inertial pos='0 0 -0.1' mass='0.3' diaginertia='0.002 0.002 0.001'/>"
    "</body></body></body></body></worldbody>"
    "<actuator><motor joint='b'/><motor joint='c'/></actuator></mujoco>";

// a force and torque held in the world on the free body and on joint c's body
static void pushed(const mjModel* m, mjData* d) {
  const mjtNum w[2][6] = {{0.3, -0.2, 0.5, 0.05, 0.02, -0.04}, {-0.4, 0.1, 0.2, 0, 0.03, 0.01}};
  (void)m;
  mju_copy(d->xfrc_applied + 6, w[0], 6);
  mju_copy(d->xfrc_applied + 24, w[1], 6);
}

Test(derivative, gravcomp_xfrc) {
  mjModel* m = load(GRAVCOMP, mjINT_EULER);
  mjData* d = mj_makeData(m);
  setState(m, d);
  mj_forward(m, d);
  cr_assert(fabs(d->qfrc_actuator[9]) == 0.2, "joint b not clamped: %g", d->qfrc_actuator[9]);
  cr_assert(d->qfrc_actuator[10] != 0, "joint c: no compensation");
  mj_deleteData(d);
  mj_deleteModel(m);
  for (int integ = mjINT_EULER; integ <= mjINT_IMPLICITFAST; integ++) {
    check("gravcomp", GRAVCOMP, integ);
    checkAt("xfrc", GRAVCOMP, integ, pushed);
  }
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

// the message of mjd_transitionSmooth refusing the model xml at its default state (nothing
// written to A) into err
static void refused(const char* xml, char* err, int errsz) {
  mjtNum A[4] = {7, 7, 7, 7};
  mjModel* m = load(xml, mjINT_EULER);
  mjData* d = mj_makeData(m);
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, NULL, NULL, err, errsz), -1);
  cr_expect(A[0] == 7 && A[3] == 7);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// fluid forces and the constraint rows not differentiated are refused with a message
Test(derivative, refusals) {
  char err[300] = "";
  mjtNum A[4] = {7, 7, 7, 7};
  mjModel* m = load(PENDULUM, mjINT_IMPLICIT);
  mjData* d = mj_makeData(m);
  m->opt.density = 1.2;
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, NULL, NULL, err, sizeof(err)), -1);
  cr_expect(strstr(err, "fluid") != NULL, "%s", err);
  cr_expect(A[0] == 7 && A[3] == 7);
  mj_deleteData(d);
  mj_deleteModel(m);
  // a mesh cube on a box with nativeccd disabled (MPR's contact) or its face on a capsule's
  // side (a line of contact: multiccd's turned tries, on by default since MuJoCo 3.8, do not
  // change that); a cylinder lying on a box (its side line clipped by the box's face: EPA's
  // rim point places it)
  for (int i = 0; i < 3; i++) {
    static const char* const flag[] = {"<flag nativeccd='disable'/>", "", ""};
    static const char* const base[] = {"box", "capsule", "cylinder"};
    static const char* const size[] = {"1 1 0.1", "0.1 1", "0.1 0.3"};
    static const char* const why[] = {" (libccd's MPR contact", ", face or edge on face",
                                      " (multiccd's clipped faces: a cylinder's side line)"};
    char xml[512], want[100];
    snprintf(xml, sizeof(xml), "<mujoco><option>%s</option><asset><mesh name='c'"
             " scale='.1 .1 .1' vertex='-1 -1 -1 1 -1 -1 -1 1 -1 1 1 -1 -1 -1 1 1 -1 1 -1 1 1"
             " 1 1 1'/></asset><worldbody>"
             "<geom type='%s' size='%s' euler='0 %d 0'/><body pos='0 0 0.199'><freejoint/>"
             "<geom type='mesh' mesh='c' euler='0 0 %d'/></body></worldbody></mujoco>",
             flag[i], base[i], size[i], i ? 90 : 0, 45);
    refused(xml, err, sizeof(err));
    snprintf(want, sizeof(want), "contact 0, %s against mesh%s", base[i], why[i]);
    cr_expect(strstr(err, want) != NULL, "%s", err);
  }
  // a box's edge along a cylinder's side, clipped to no point: multiccd turns EPA's contact
  // around as MuJoCo's does (the same normal in MuJoCo 3.14.0: convex_native.xml's state 26)
  refused("<mujoco><option gravity='0 0 0'/><worldbody><geom type='cylinder' size='0.1 0.15'"
          " pos='0.035556679943370022 0.25111980821989466 -0.059383248230155207'"
          " quat='0.21437997995476632 -0.58486269865600127 -0.62979671041635377"
          " -0.46403981667972527'/><body pos='-0.20436732668632984 0.15834038285461272"
          " 0.066814637476026381' quat='0.51186140948540959 0.54157526227753083"
          " 0.40290478514076949 -0.53137733003893184'><freejoint/>"
          "<geom type='box' size='0.08 0.1 0.12'/></body></worldbody></mujoco>", err, sizeof(err));
  cr_expect(strstr(err, "contact 0, cylinder against box (its normal reversed") != NULL, "%s", err);
  refused("<mujoco><worldbody><site name='s'/><geom name='w' size='0.05' pos='0.1 0 0.5'/>"
          "<body pos='0 0 1'><joint axis='0 1 0'/>"
          "<geom size='0.1' pos='0 0 -0.3'/><site name='t' pos='0.3 0 0'/></body></worldbody>"
          "<tendon><spatial limited='true' range='0 0.5'><site site='s'/><geom geom='w'/>"
          "<site site='t'/></spatial></tendon></mujoco>", err, sizeof(err));
  cr_expect(strstr(err, "limit of a spatial tendon wrapping geoms or over pulleys: not "
                        "differentiated") != NULL, "%s", err);
}

// a clock that only counts: the pipeline timers then count forward passes
static double ticks(void) { return 0; }


// ---- the constraint stage: limits, friction loss, contacts -------------------------------------

// a double pendulum: the first hinge pressed into its upper limit (a soft range with an
// impedance slope: solimp width 0.01), friction loss on the second
static const char* LIMITED =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/>"
    "<compiler angle='radian'/><worldbody><body pos='0 0 1'>"
    "<joint name='h' axis='0 1 0' damping='0.05' limited='true' range='-0.5 0.5'"
    " solreflimit='0.02 1'"
    " solimplimit='0.8 0.95 0.01 0.5 2'/>"
    "<inertial pos='0 0 -0.4' mass='2' diaginertia='0.01 0.02 0.03'/>"
    "<body pos='0 0 -0.7'><joint axis='1 0 0.2' frictionloss='0.3'/>"
    "<inertial pos='0 0.05 -0.3' mass='0.7' diaginertia='0.01 0.015 0.02'/>"
    "</body></body></worldbody>"
    "<actuator><motor joint='h' gear='1.5'/></actuator></mujoco>";

// the limit violated by 0.004 (quadratic), the second joint turning slowly (friction loss
// quadratic) or fast (saturated)
static void intoLimit(const mjModel* m, mjData* d) {
  (void)m;
  d->qpos[0] = 0.504, d->qpos[1] = 0.3;
  d->qvel[0] = 0.2, d->qvel[1] = 0.001;
}
static void intoLimitFast(const mjModel* m, mjData* d) {
  intoLimit(m, d);
  d->qvel[1] = 3;
}

Test(derivative, limit_friction) {
  checkAt("limit", LIMITED, mjINT_EULER, intoLimit);
  checkAt("limit", LIMITED, mjINT_IMPLICIT, intoLimit);
  checkAt("limit", LIMITED, mjINT_IMPLICITFAST, intoLimit);
  checkAt("limit", LIMITED, mjINT_RK4, intoLimit);
  checkAt("limitfast", LIMITED, mjINT_EULER, intoLimitFast);
  checkAt("limitfast", LIMITED, mjINT_IMPLICITFAST, intoLimitFast);
}

// a pendulum on a ball joint limited to a cone of 0.5 rad, a hinge below it
static const char* BALL_LIMITED =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/>"
    "<compiler angle='radian'/><worldbody><body pos='0 0 1'>"
    "<joint type='ball' range='0 0.5' damping='0.02' solreflimit='0.02 1'"
    " solimplimit='0.8 0.95 0.01 0.5 2'/>"
    "<inertial pos='0.05 0 -0.4' mass='2' diaginertia='0.01 0.02 0.03'/>"
    "<body pos='0 0 -0.7'><joint axis='1 0 0.2'/>"
    "<inertial pos='0 0.05 -0.3' mass='0.7' diaginertia='0.01 0.015 0.02'/>"
    "</body></body></worldbody></mujoco>";

// the ball turned 0.503 rad about a tilted axis (inside the limit's quadratic impedance),
// turning on
static void ballIntoLimit(const mjModel* m, mjData* d) {
  (void)m;
  mjtNum axis[3] = {0.6, -0.48, 0.64}, w[3] = {0.3, 0.2, -0.5};
  mju_axisAngle2Quat(d->qpos, axis, 0.503);
  mju_copy3(d->qvel, w);
  d->qpos[4] = 0.2;
  d->qvel[3] = -0.4;
}

Test(derivative, ball_limit) {
  for (int integ = mjINT_EULER; integ <= mjINT_IMPLICITFAST; integ++)
    checkAt("ball_limit", BALL_LIMITED, integ, ballIntoLimit);
}

// a ball (free joint) and a capsule on a tilted plane, elliptic cones (%s: the cone and
// condim), solimp with a slope over 0.01 of penetration
static const char* CONTACT_FMT =
    "<mujoco><compiler angle='radian'/>"
    "<option timestep='0.002' tolerance='0' %s/>"
    "<default><geom solimp='0.8 0.95 0.01 0.5 2' friction='0.7 0.02 0.01' %s/></default>"
    "<worldbody><geom type='plane' size='5 5 0.1' euler='0.1 -0.05 0'/>"
    "<body pos='0 0 0.1'><freejoint/><geom type='sphere' size='0.1' mass='1'/></body>"
    "<body pos='2 0 0.1'><freejoint/>"
    "<geom type='capsule' size='0.05 0.2' euler='0 1.56 0.3' mass='0.8'/></body>"
    "</worldbody></mujoco>";

// the ball and the capsule pressed 4 mm into the plane (along its normal; the capsule's axis
// 0.6 degrees off the plane: both ends in contact), turned about the normal, with velocity v
// (tangential) and w (spin)
static void onPlane(const mjModel* m, mjData* d, mjtNum v, mjtNum w) {
  mjtNum n[3] = {0, 0, 1}, q[4];
  mju_copy4(q, m->geom_quat);
  mju_rotVecQuat(n, (mjtNum[3]){0, 0, 1}, q);
  mjtNum h[2] = {0.1 - 0.004, 0.05 - 0.004}, x[2] = {0, 2};
  for (int b = 0; b < 2; b++) {
    mjtNum* qp = d->qpos + 7 * b;
    mjtNum base[3] = {x[b], 0.3, 0};
    base[2] = -(n[0] * base[0] + n[1] * base[1]) / n[2];
    for (int i = 0; i < 3; i++) qp[i] = base[i] + h[b] * n[i];
    mjtNum tilt[4], turn[4];
    mju_quatZ2Vec(tilt, n);
    mju_axisAngle2Quat(turn, (mjtNum[3]){0, 0, 1}, 0.4 + b);
    mju_mulQuat(qp + 3, tilt, turn);
    mjtNum* qv = d->qvel + 6 * b;
    qv[0] = v * n[2], qv[1] = 0.3 * v, qv[2] = -v * n[0] - 0.01;
    qv[3] = 0.2 * w, qv[4] = -0.3 * w, qv[5] = w;
  }
}
static void sliding(const mjModel* m, mjData* d) { onPlane(m, d, 0.6, 1.5); }
static void resting(const mjModel* m, mjData* d) { onPlane(m, d, 0.001, 0.002); }

// the contact model with option attributes opt and default geom attributes geom
static void checkContact(const char* name, const char* opt, const char* geom, int integ,
                         void (*adjust)(const mjModel*, mjData*)) {
  char xml[2048];
  snprintf(xml, sizeof(xml), CONTACT_FMT, opt, geom);
  checkAt(name, xml, integ, adjust);
}

Test(derivative, contact_elliptic) {
  checkContact("elliptic", "cone='elliptic'", "", mjINT_EULER, sliding);
  checkContact("elliptic", "cone='elliptic'", "", mjINT_EULER, resting);
  checkContact("elliptic", "cone='elliptic'", "", mjINT_IMPLICITFAST, sliding);
  checkContact("elliptic6", "cone='elliptic'", "condim='6'", mjINT_EULER, sliding);
  checkContact("elliptic4", "cone='elliptic'", "condim='4'", mjINT_RK4, resting);
}

Test(derivative, contact_pyramidal) {
  checkContact("pyramid", "", "", mjINT_EULER, sliding);
  checkContact("pyramid", "", "", mjINT_EULER, resting);
  checkContact("pyramid", "", "", mjINT_IMPLICIT, sliding);
  checkContact("pyramid1", "", "condim='1'", mjINT_EULER, sliding);
  checkContact("pyramid6", "", "condim='6'", mjINT_EULER, resting);
}

// ---- noslip -----------------------------------------------------------------------------------

// a box (condim 3), a sphere (condim 6) and a capsule (condim 4) on a tilted plane, a hinged
// arm with friction loss on its hinges and slide and on a fixed tendon; noslip (%d sweeps at
// most) after the exact main solver, cones as the option attributes %s make them
static const char* NOSLIP_FMT =
    "<mujoco><option timestep='0.004' tolerance='0' noslip_iterations='%d' %s/>"
    "<default><geom friction='0.8 0.02 0.01'/></default>"
    "<worldbody><geom type='plane' size='5 5 0.1' euler='5 3 0'/>"
    "<body pos='0 0 0.1'><freejoint/><geom type='box' size='0.1 0.08 0.1'/></body>"
    "<body pos='0.5 0 0.1'><freejoint/><geom type='sphere' size='0.1' condim='6'/></body>"
    "<body pos='-0.5 0 0.1'><freejoint/>"
    "<geom type='capsule' size='0.05' fromto='0 -.1 0 0 .1 0' condim='4'/></body>"
    "<body pos='0 1 0.7'><joint name='a' axis='0 1 0' frictionloss='0.3'/>"
    "<geom type='capsule' size='0.03' fromto='0 0 0 0 0 -0.4'/>"
    "<body pos='0 0 -0.4'><joint name='b' axis='1 0 0' frictionloss='0.2'/>"
    "<joint name='c' type='slide' axis='0 0 1' frictionloss='1'/>"
    "<geom type='capsule' size='0.03' fromto='0 0 0 0.3 0 -0.3'/></body></body></worldbody>"
    "<tendon><fixed name='t' frictionloss='0.1'><joint joint='a' coef='1'/>"
    "<joint joint='b' coef='-0.5'/></fixed></tendon>"
    "<actuator><motor joint='a'/><motor joint='c'/></actuator>"
    "<keyframe><key qpos='0 0 0.1 1 0 0 0 0.5 0 0.1 1 0 0 0 -0.5 0 0.05 1 0 0 0 0.3 0.2 0'"
    " qvel='0.3 0.1 0 0 0 0.4 -0.5 0.3 0 1 2 0 0.2 0.5 0 0 0 1 1 -1 0.5' ctrl='0.5 -1'/>"
    "</keyframe></mujoco>";

// the keyframe simulated for 40 steps: the box and the capsule sliding, the sphere rolling,
// the arm's friction losses some saturated, some not
static void noslipSliding(const mjModel* m, mjData* d) {
  mj_resetDataKeyframe(m, d, 0);
  for (int i = 0; i < 40; i++) mj_step(m, d);
}

// through noslip's sweeps, one (noslip far from converged), four and fifty (converged), on
// pyramidal and elliptic cones
Test(derivative, noslip) {
  static const int integ[] = {mjINT_EULER, mjINT_IMPLICITFAST, mjINT_IMPLICIT, mjINT_RK4};
  static const int sweeps[] = {1, 4, 50};
  char xml[2048], name[32];
  for (int e = 0; e < 2; e++) {
    for (int i = 0; i < 3; i++) {
      snprintf(xml, sizeof(xml), NOSLIP_FMT, sweeps[i], e ? "cone='elliptic'" : "");
      snprintf(name, sizeof(name), "noslip%d%s", sweeps[i], e ? "e" : "");
      for (int k = 0; k < 4; k++) checkAt(name, xml, integ[k], noslipSliding);
    }
  }
}

// the analytic A and B at the solution CG or PGS (solver, an mjtSolver) found equal those at
// Newton's (checked against differences above) within 1e-6: the derivative holds at the
// solution whatever found it (central differences of CG and PGS steps are no reference: the
// solvers stop at their tolerance, ~1e-7 from the optimum here, differently per perturbation)
static void sameAsNewton(const char* name, const char* opt, int solver,
                         void (*adjust)(const mjModel*, mjData*)) {
  char xml[2048], err[300];
  snprintf(xml, sizeof(xml), CONTACT_FMT, opt, "");
  mjModel* m = load(xml, mjINT_EULER);
  mjData* d = mj_makeData(m);
  int ndx = 2 * m->nv;
  mjtNum A[2][ndx * ndx];
  for (int k = 0; k < 2; k++) {
    m->opt.solver = k ? mjSOL_NEWTON : solver;
    m->opt.iterations = 5000;
    adjust(m, d);
    cr_assert_eq(mjd_transitionSmooth(m, d, A[k], NULL, NULL, NULL, err, sizeof(err)), 0, "%s",
                 err);
  }
  mjtNum e = relErr(A[0], A[1], ndx * ndx);
  fprintf(stderr, "derivative: %-9s against Newton's: A %.2e\n", name, e);
  cr_expect_leq(e, 1e-6, "%s: A off Newton's by %g", name, e);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, contact_solvers) {
  sameAsNewton("cg", "cone='elliptic'", mjSOL_CG, sliding);
  sameAsNewton("cg", "", mjSOL_CG, resting);
  sameAsNewton("pgs", "", mjSOL_PGS, sliding);
  sameAsNewton("pgs", "cone='elliptic'", mjSOL_PGS, resting);
}

// five free bodies in the air: a sphere touched by a sphere and by a capsule's side, that
// capsule crossed by a second one, whose end touches a third sphere (the normals turning
// with the bodies: mju_makeFrame's tangents move; contact points sliding along segments or
// held at their ends); %s: the cone
static const char* SPHERES_FMT =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100' %s/>"
    "<default><geom solimp='0.8 0.95 0.01 0.5 2' friction='0.6 0.02 0.01' %s/></default>"
    "<worldbody><body><freejoint/><geom type='sphere' size='0.1' mass='1'/></body>"
    "<body><freejoint/><geom type='sphere' size='0.1' mass='0.5'/></body>"
    "<body><freejoint/><geom type='capsule' size='0.05 0.2' mass='0.7'/></body>"
    "<body><freejoint/><geom type='capsule' size='0.05 0.2' mass='0.6'/></body>"
    "<body><freejoint/><geom type='sphere' size='0.05' mass='0.3'/></body>"
    "</worldbody></mujoco>";

// sphere 1 at (0, 0, 1); sphere 2 3 mm into it along u (not 5 mm: the middle of solimp's
// width, where the impedance's curvature jumps and central differences lose an order), the
// capsule 4 mm into it along w with its axis a1 across w (the nearest point 0.08 from its
// center); capsule 2 (axis a2 across w) 4 mm into capsule 1 beyond it along w, the nearest
// points 0.05 and 0.06 from their centers; sphere 3 2 mm into capsule 2's end along a2;
// velocities of every dof
static void touching(const mjModel* m, mjData* d) {
  mjtNum u[3] = {0.6, 0.3, 0.74}, w[3] = {-0.7, 0.5, -0.1}, a1[3], a2[3], e[3] = {0.2, 0.3, 1};
  mju_normalize3(u);
  mju_normalize3(w);
  mju_cross(a1, w, e);
  mju_normalize3(a1);
  mju_cross(a2, w, a1);
  mju_scl3(a2, a2, 0.8);
  mju_addToScl3(a2, a1, 0.6);
  mju_zero(d->qpos, m->nq);
  mjtNum *q1 = d->qpos, *q2 = q1 + 7, *c1 = q1 + 14, *c2 = q1 + 21, *q3 = q1 + 28;
  q1[2] = 1;
  for (int i = 0; i < 3; i++) {
    q2[i] = q1[i] + 0.197 * u[i];
    c1[i] = q1[i] + 0.146 * w[i] + 0.08 * a1[i];
    c2[i] = c1[i] + 0.096 * w[i] + 0.05 * a1[i] - 0.06 * a2[i];
    q3[i] = c2[i] + 0.298 * a2[i];
  }
  q1[3] = q2[3] = q3[3] = 1;
  mju_quatZ2Vec(c1 + 3, a1);
  mju_quatZ2Vec(c2 + 3, a2);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.5 * sin(1.7 * i + 0.4);
}

// the five-body model with option attributes opt and default geom attributes geom
static void checkSpheres(const char* name, const char* opt, const char* geom, int integ) {
  char xml[2048];
  snprintf(xml, sizeof(xml), SPHERES_FMT, opt, geom);
  checkAt(name, xml, integ, touching);
}

Test(derivative, contact_spheres) {
  checkSpheres("spheres", "cone='elliptic'", "", mjINT_EULER);
  checkSpheres("spheres", "", "", mjINT_EULER);
  checkSpheres("spheres6", "", "condim='6'", mjINT_IMPLICITFAST);
  checkSpheres("spheres4", "cone='elliptic'", "condim='4'", mjINT_EULER);
  checkSpheres("spheres1", "", "condim='1'", mjINT_EULER);
}

// a box, a cylinder and a convex mesh (an irregular octahedron) on a tilted plane; %s: the
// cone
static const char* SOLIDS_FMT =
    "<mujoco><compiler angle='radian'/>"
    "<option timestep='0.002' tolerance='0' iterations='100' %s/>"
    "<default><geom solimp='0.8 0.95 0.01 0.5 2' friction='0.7 0.02 0.01'/></default>"
    "<asset><mesh name='oct' vertex='0.1 0 0 -0.09 0 0 0 0.08 0 0 -0.07 0 0 0 0.12 0 0 -0.1'/>"
    "</asset><worldbody><geom type='plane' size='5 5 0.1' euler='0.1 -0.05 0'/>"
    "<body><freejoint/><geom type='box' size='0.1 0.07 0.05' mass='1'/></body>"
    "<body><freejoint/><geom type='cylinder' size='0.06 0.1' mass='0.8'/></body>"
    "<body><freejoint/><geom type='mesh' mesh='oct' mass='0.5'/></body>"
    "</worldbody></mujoco>";

// each solid turned relative to the plane (the box by 0.01 about x and y: its bottom face's
// four corners in contact; the cylinder on its rim), then moved along the plane's normal
// until its deepest point is 4 mm in (mj_geomDistance); velocities of every dof
static void solidsDown(const mjModel* m, mjData* d) {
  static const mjtNum turn[3][4] = {{1, 0.005, 0.005, 0.1}, {0.8, 0.55, 0.1, 0.2},
                                    {0.9, 0.2, -0.3, 0.25}};
  mjtNum n[3], tilt[4], t[4];
  mju_rotVecQuat(n, (mjtNum[3]){0, 0, 1}, m->geom_quat);
  mju_quatZ2Vec(tilt, n);
  mju_zero(d->qpos, m->nq);
  for (int b = 0; b < 3; b++) {
    mjtNum* q = d->qpos + 7 * b;
    q[0] = 0.4 * b, q[1] = 0.1 * b, q[2] = 0.5;
    mju_copy4(t, turn[b]);
    mju_normalize4(t);
    mju_mulQuat(q + 3, tilt, t);
  }
  mj_fwdPosition(m, d);
  for (int b = 0; b < 3; b++) {
    mjtNum dist = mj_geomDistance(m, d, 0, b + 1, 2, NULL);
    mju_addToScl3(d->qpos + 7 * b, n, -dist - 0.004);
  }
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.4 * sin(1.3 * i + 0.7);
}

Test(derivative, contact_solids) {
  char xml[2048];
  snprintf(xml, sizeof(xml), SOLIDS_FMT, "cone='elliptic'");
  checkAt("solids", xml, mjINT_EULER, solidsDown);
  snprintf(xml, sizeof(xml), SOLIDS_FMT, "");
  checkAt("solids", xml, mjINT_IMPLICITFAST, solidsDown);
}

// contacts the engine collides in closed form off the plane, differentiated by their
// features (a witness's vertex, edge or face, a tube, a sphere, an ellipsoid's shape): box
// on box face on face (a tilting base under a turned box: clipped points on tilted
// incident edges), a box's corner on a box, spheres on a box's face and edge, a capsule on
// a box, spheres on a cylinder's cap, rim and side (the cylinder held clear of the plane: pressed
// on it, it settles flat within 1e-4, where its rim contact's direction turns by 1e-2 per 1e-6
// of tilt and the differences are no reference), an ellipsoid on the plane; solved exactly
// (tolerance 0: at MuJoCo's default the step depends on the warm start, the derivative is that
// of the exact solution)
static const char* const FEATURES[] = {
    "<mujoco><option timestep='0.005' tolerance='0' iterations='100'/><worldbody>"
    "<body pos='0.6 0 0.1' euler='3 2 0'><joint type='ball'/><geom type='box' size='.1 .1 .1'/>"
    "</body><body pos='0.62 0.01 0.28' euler='0 0 25'><freejoint/>"
    "<geom type='box' size='.08 .08 .08'/></body></worldbody></mujoco>",
    "<mujoco><option timestep='0.005' tolerance='0' iterations='100'/><worldbody>"
    "<body pos='0 0 0.1' euler='3 2 5'><joint type='ball'/><geom type='box' size='.2 .15 .1'/>"
    "</body><body pos='0.05 0.02 0.26' euler='90 0 20'><freejoint/>"
    "<geom type='box' size='.08 .05 .06'/></body></worldbody></mujoco>",
    "<mujoco><option timestep='0.005' tolerance='0' iterations='100'/><worldbody>"
    "<body pos='0 0 0.3' euler='10 20 5'><joint type='ball' damping='.1'/>"
    "<geom type='box' size='.2 .15 .1'/></body>"
    "<body pos='0.05 0.02 0.49'><freejoint/><geom type='sphere' size='.06'/></body>"
    "<body pos='0.19 0.14 0.5'><freejoint/><geom type='sphere' size='.05'/></body>"
    "<body pos='-0.3 0 0.45' euler='0 80 0'><freejoint/><geom type='capsule' size='.04 .1'/>"
    "</body></worldbody></mujoco>",
    "<mujoco><option timestep='0.005' tolerance='0' iterations='100'/><worldbody><geom type='plane' size='2 2 .1'/>"
    "<body pos='0 0 0.13' euler='3 2 5'><joint type='ball' damping='.2'/>"
    "<geom type='cylinder' size='.2 .1'/></body>"
    "<body pos='0.05 0.02 0.29'><freejoint/><geom type='sphere' size='.06'/></body>"
    "<body pos='0.19 0 0.23'><freejoint/><geom type='sphere' size='.05'/></body>"
    "<body pos='0.26 0 0.06'><freejoint/><geom type='sphere' size='.07'/></body>"
    "<body pos='0.8 0.02 0.055' euler='30 10 0'><freejoint/>"
    "<geom type='ellipsoid' size='.08 .05 .06'/></body></worldbody></mujoco>"};

// the model's own initial state simulated for 60 steps (the contacts settled: no event)
static void settled(const mjModel* m, mjData* d) {
  mj_resetData(m, d);
  for (int i = 0; i < 60; i++) mj_step(m, d);
}

Test(derivative, contact_features) {
  static const char* const name[] = {"boxclip", "boxcorner", "onbox", "cylinder"};
  for (int i = 0; i < 4; i++) {
    checkAt(name[i], FEATURES[i], mjINT_EULER, settled);
    checkAt(name[i], FEATURES[i], mjINT_IMPLICITFAST, settled);
  }
}

// the general convex solver's contacts (GJK/EPA) between polytopes, where EPA ends on a true
// facet of the Minkowski difference whatever its tolerance: a free tetrahedron's edge across a
// fixed one's (edge on edge), an irregular octahedron's vertex on a box's face and a box's
// corner on a second octahedron's face (vertex on face), each 2 mm in, all on a plane; and a
// capsule's end on a third tetrahedron's face, 1.5 mm in, where EPA's normal is the face's only
// to its tolerance (the sphere's support points bound the facet): tightened to 1e-13 for it;
// multiccd disabled, whose extra capsule contacts are refused (the single contact's derivative
// is what this checks)
static const char* POLYTOPES =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100' ccd_tolerance='1e-13'"
    " ccd_iterations='500'><flag multiccd='disable'/></option>"
    "<default><geom solimp='0.8 0.95 0.01 0.5 2' friction='0.7 0.02 0.01'/></default>"
    "<asset><mesh name='wedge' vertex='0.1 0 0 -0.09 0.01 0 0.01 0.08 -0.12 -0.01 -0.07 -0.1'/>"
    "<mesh name='oct' vertex='0.1 0 0 -0.09 0 0 0 0.08 0 0 -0.07 0 0 0 0.12 0 0 -0.1'/>"
    "</asset><worldbody><geom type='plane' size='5 5 0.1'/>"
    "<geom type='mesh' mesh='wedge' pos='0 0 0.2'/>"
    "<body pos='0.002 0.001 0.198' euler='180 0 80'><freejoint/>"
    "<geom type='mesh' mesh='wedge' mass='0.3'/></body>"
    "<geom type='box' size='0.1 0.1 0.05' pos='0.6 0 0.05' euler='0 0 10'/>"
    "<body pos='0.61 0.02 0.198' euler='4 -3 0'><freejoint/>"
    "<geom type='mesh' mesh='oct' mass='0.5'/></body>"
    "<body pos='-0.6 0 0.098' euler='5 8 0'><freejoint/><geom type='mesh' mesh='oct' mass='0.5'/>"
    "</body><body pos='-0.54 0.02 0.2222' euler='30 40 10'><freejoint/>"
    "<geom type='box' size='0.03 0.03 0.03' mass='0.2'/></body>"
    "<geom type='mesh' mesh='wedge' pos='-0.6 0.6 0.2'/>"
    "<body pos='-0.6 0.635 0.2304' euler='20 10 0'><freejoint/>"
    "<geom type='capsule' size='.03 .06'/></body></worldbody></mujoco>";

// the model's initial state with velocities of every dof 0.2 sin(1.3 i + 0.7)
static void placed(const mjModel* m, mjData* d) {
  mj_resetData(m, d);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.2 * sin(1.3 * i + 0.7);
}

// a sphere and a capsule's side on fixed ellipsoids, about 2 mm in: EPA's contact is an
// iterate near the ideal one (measured at the default ccd_tolerance 1e-6: normals 1.4e-3 and
// 3.1e-4 off, points 1e-6 and 4e-5; at 1e-13 still 6e-7 and 3e-7, so that no difference of
// the engine's steps resolves their motion), whose derivative the analytic one is
static const char* CURVED =
    "<mujoco><worldbody>"
    "<geom type='ellipsoid' size='.15 .1 .08' pos='0 0 0.1' euler='0 0 20'/>"
    "<geom type='ellipsoid' size='.15 .1 .08' pos='0.6 0 0.1' euler='0 10 20'/>"
    "<body pos='0.03 0.02 0.2259'><freejoint/><geom size='0.05'/></body>"
    "<body pos='0.62 0.01 0.20969' euler='0 90 10'><freejoint/>"
    "<geom type='capsule' size='.03 .08'/></body></worldbody></mujoco>";

// the point y of ellipsoid g's surface nearest the world point x outside it, to rounding:
// y = s^2 o l / (s^2 + la) in its frame (l = x there), la the root of
// f(la) = sum s^2 l^2 / (s^2 + la)^2 - 1 by Newton from 0 (f convex, falling: monotone)
static void nearestOnEllipsoid(const mjModel* m, const mjData* d, int g, const mjtNum x[3],
                               mjtNum y[3]) {
  const mjtNum *s = m->geom_size + 3 * g, *mat = d->geom_xmat + 9 * g;
  mjtNum rel[3], l[3], la = 0;
  mju_sub3(rel, x, d->geom_xpos + 3 * g);
  mju_mulMatTVec3(l, mat, rel);
  for (int it = 0; it < 100; it++) {
    mjtNum f = -1, df = 0;
    for (int k = 0; k < 3; k++) {
      mjtNum q = s[k] * s[k] + la, t = s[k] * s[k] * l[k] * l[k] / (q * q);
      f += t, df -= 2 * t / q;
    }
    if (df < 0) la -= f / df;
  }
  for (int k = 0; k < 3; k++) l[k] *= s[k] * s[k] / (s[k] * s[k] + la);
  mju_mulMatVec3(y, mat, l);
  mju_addTo3(y, d->geom_xpos + 3 * g);
}

// con's pos, frame and dist replaced by the ideal contact of sphere or capsule geom1 (radius
// r, segment c + t a, |t| <= h) with ellipsoid geom2 at d's poses: x the segment's point
// nearest the ellipsoid (bisection on the distance's slope a'(x - y)/|x - y|, convex in t),
// y the ellipsoid's nearest x: n = (y - x)/|y - x|, dist = |y - x| - r, pos = (x + r n + y)/2
static void idealContact(const mjModel* m, const mjData* d, mjContact* con) {
  int g = con->geom1;
  const mjtNum *mat = d->geom_xmat + 9 * g, *c = d->geom_xpos + 3 * g;
  mjtNum a[3] = {mat[2], mat[5], mat[8]}, x[3], y[3], r = m->geom_size[3 * g];
  mjtNum h = m->geom_type[g] == mjGEOM_CAPSULE ? m->geom_size[3 * g + 1] : 0, lo = -h, hi = h;
  for (int it = 0; it < 200; it++) {
    mjtNum t = (lo + hi) / 2, rel[3];
    mju_copy3(x, c);
    mju_addToScl3(x, a, t);
    nearestOnEllipsoid(m, d, con->geom2, x, y);
    mju_sub3(rel, x, y);
    if (mju_dot3(a, rel) > 0) hi = t;
    else lo = t;
  }
  mju_copy3(x, c);
  mju_addToScl3(x, a, (lo + hi) / 2);
  nearestOnEllipsoid(m, d, con->geom2, x, y);
  mju_sub3(con->frame, y, x);
  con->dist = mju_normalize3(con->frame) - r;
  mju_add3(con->pos, x, y);
  mju_addToScl3(con->pos, con->frame, r);
  mju_scl3(con->pos, con->pos, 0.5);
  mju_zero3(con->frame + 3);
  mju_makeFrame(con->frame);
}

// the analytic motion of the ideal contacts (mjd_contactMotion at them) against central
// differences (1e-6) of the ideal contacts under each dof's motion: within 1e-7 (pos, frame,
// dist; measured 6e-11 and 2e-9); the engine's EPA contacts printed against the ideal ones
Test(derivative, contact_curved_ideal) {
  mjModel* m = load(CURVED, mjINT_EULER);
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  cr_assert_eq(d->ncon, 2);
  for (int i = 0; i < d->ncon; i++) {
    mjContact ideal = d->contact[i], cp, cm;
    idealContact(m, d, &ideal);
    fprintf(stderr, "derivative: curved contact %d: EPA's off the ideal by %.1e (pos) %.1e "
            "(normal) %.1e (dist)\n", i, mju_dist3(ideal.pos, d->contact[i].pos),
            mju_dist3(ideal.frame, d->contact[i].frame), fabs(ideal.dist - d->contact[i].dist));
    mjtNum err = 0, q0[m->nq];
    mju_copy(q0, d->qpos, m->nq);
    for (int k = 0; k < m->nv; k++) {
      int b = m->dof_bodyid[k], mv[2] = {m->geom_bodyid[ideal.geom1] == b,
                                         m->geom_bodyid[ideal.geom2] == b};
      mjtNum dp[3], dfr[9], ddist, e[m->nv];
      mjd_contactMotion(m, d, &ideal, d->cdof + 6 * k, d->subtree_com + 3 * m->body_rootid[b],
                        mv[0], mv[1], dp, dfr, &ddist);
      for (int sg = -1; sg <= 1; sg += 2) {
        mju_zero(e, m->nv);
        e[k] = 1;
        mju_copy(d->qpos, q0, m->nq);
        mj_integratePos(m, d->qpos, e, sg * 1e-6);
        mj_fwdPosition(m, d);
        *(sg < 0 ? &cm : &cp) = ideal;
        idealContact(m, d, sg < 0 ? &cm : &cp);
      }
      mju_copy(d->qpos, q0, m->nq);
      mj_forward(m, d);
      for (int j = 0; j < 3; j++) err = fmax(err, fabs(dp[j] - (cp.pos[j] - cm.pos[j]) / 2e-6));
      for (int j = 0; j < 9; j++)
        err = fmax(err, fabs(dfr[j] - (cp.frame[j] - cm.frame[j]) / 2e-6));
      err = fmax(err, fabs(ddist - (cp.dist - cm.dist) / 2e-6));
    }
    fprintf(stderr, "derivative: curved contact %d: motion off the differences by %.1e\n", i,
            err);
    cr_expect_leq(err, 1e-7, "contact %d: %g", i, err);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, contact_polytopes) {
  checkAt("polytopes", POLYTOPES, mjINT_EULER, placed);
  checkAt("polytopes", POLYTOPES, mjINT_IMPLICITFAST, placed);
}

// multiccd's clipped faces (collision_clip.c) of boxes, mesh cubes and slabs and a cylinder's
// cap (its 16-gon), 0.2-11 mm into one another: a mesh cube turned and tilted on a box's face
// (the cube face's corners inside the box's), a box turned under a mesh slab (the box face's
// corner lines cut by the slab's face), a mesh cube over a box's edge (edges cut by side
// planes), a mesh cube on a mesh cube turned 15 degrees against it (all three kinds of
// points), a cylinder's cap under a mesh cube (the cube face's corners and edges) and a
// narrower one under the cube's edge (the cap's corner lines; a whole cap leaves a regular
// polygon whose quadrilateral turns with the least motion), a mesh cube's edge on a box's
// face, over its side, and a box's edge on a slab's face; each one pair, the upper geom free
static const char* const CLIPPED[] = {
    "<geom type='box' size='.1 .1 .05' euler='2 3 0'/><body pos='.01 .02 .096' euler='1 -2 30'>",
    "<geom type='box' size='.05 .05 .05' euler='1 2 20'/>"
    "<body pos='.02 .01 .097' euler='-1 1 0'><freejoint/><geom type='mesh' mesh='s'/></body>",
    "<geom type='box' size='.1 .1 .05' euler='2 3 0'/><body pos='.1 .03 .096' euler='1 -2 30'>",
    "<geom type='mesh' mesh='c' euler='2 1 40'/><body pos='.03 .01 .096' euler='1 -2 25'>",
    "<geom type='cylinder' size='.08 .05' euler='1 2 0'/><body pos='.03 .01 .096' euler='2 1 20'>",
    "<geom type='cylinder' size='.03 .05' euler='1 2 0'/>"
    "<body pos='-.035 .01 .096' euler='2 1 10'>",
    "<geom type='box' size='.1 .1 .05' euler='0 0 3'/><body pos='.09 .02 .114' euler='45 3 10'>",
    "<geom type='box' size='.05 .06 .04' euler='44 1 5'/>"
    "<body pos='.01 0 .1121' euler='1 -1 0'><freejoint/><geom type='mesh' mesh='s'/></body>"};

// the XML of CLIPPED[i] into xml (n bytes): a free mesh cube (half size 0.05) in the body it
// opens, or its own free body
static const char* clippedXML(int i, char* xml, int n) {
  const char* tail = strstr(CLIPPED[i], "</body>") ? ""
                     : "<freejoint/><geom type='mesh' mesh='c'/></body>";
  snprintf(xml, n, "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/>"
           "<asset><mesh name='c' scale='.05 .05 .05' vertex='-1 -1 -1 1 -1 -1 -1 1 -1 1 1 -1 "
           "-1 -1 1 1 -1 1 -1 1 1 1 1 1'/><mesh name='s' scale='.3 .3 .05' vertex='-1 -1 -1 1 "
           "-1 -1 -1 1 -1 1 1 -1 -1 -1 1 1 -1 1 -1 1 1 1 1 1'/></asset><worldbody>%s%s"
           "</worldbody></mujoco>", CLIPPED[i], tail);
  return xml;
}

// the contact of d between con's geoms nearest con's point (clipped contacts may come in
// another order when the geoms move)
static const mjContact* nearestContact(const mjData* d, const mjContact* con) {
  const mjContact* best = NULL;
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    if (c->geom1 != con->geom1 || c->geom2 != con->geom2) continue;
    if (!best || mju_dist3(c->pos, con->pos) < mju_dist3(best->pos, con->pos)) best = c;
  }
  return best;
}

// d's positions (mj_fwdPosition) at q0 moved by step along dof k
static void movedAlong(const mjModel* m, mjData* d, const mjtNum* q0, int k, mjtNum step) {
  mjtNum e[m->nv];
  mju_zero(e, m->nv);
  e[k] = 1;
  mju_copy(d->qpos, q0, m->nq);
  mj_integratePos(m, d->qpos, e, step);
  mj_fwdPosition(m, d);
}

// the analytic motion of every clipped contact of model i (mjd_contactMotion) against central
// differences (1e-6) of the contacts under each dof's motion: pos and dist within 1e-8, the
// normal within 1e-9 over the depth (the normal is the witnesses' difference over the depth,
// rounded to about 1e-16 / depth: its differences' noise); *lines counts the kinds of points
// (bit 0 a corner, 1 an edge cut by a side plane, 2 a corner line cut by a face)
static void checkClipMotion(int i, int* lines) {
  char xml[2048];
  mjModel* m = load(clippedXML(i, xml, sizeof(xml)), mjINT_EULER);
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  int ncon = d->ncon;
  cr_assert_geq(ncon, 2, "clipped %d: %d contacts", i, ncon);
  mjContact con[ncon], cp, cm;
  memcpy(con, d->contact, sizeof(con));
  mjtNum q0[m->nq], err = 0, errn = 0, h = 1e-6;
  mju_copy(q0, d->qpos, m->nq);
  for (int c = 0; c < ncon; c++) {
    cr_assert(con[c].clip[0] > 0 && con[c].clip[1] >= 0, "clipped %d: contact %d: %d %d", i,
              c, con[c].clip[0], con[c].clip[1]);
    *lines |= 1 << con[c].clip[1];
    for (int k = 0; k < m->nv; k++) {
      int b = m->dof_bodyid[k], mv[2] = {m->geom_bodyid[con[c].geom1] == b,
                                         m->geom_bodyid[con[c].geom2] == b};
      mjtNum dp[3], dfr[9], ddist;
      mj_forward(m, d);
      mjd_contactMotion(m, d, con + c, d->cdof + 6 * k, d->subtree_com + 3 * m->body_rootid[b],
                        mv[0], mv[1], dp, dfr, &ddist);
      for (int sg = -1; sg <= 1; sg += 2) {
        movedAlong(m, d, q0, k, sg * h);
        cr_assert_eq(d->ncon, ncon, "clipped %d: the contacts change within %g", i, h);
        *(sg < 0 ? &cm : &cp) = *nearestContact(d, con + c);
      }
      mju_copy(d->qpos, q0, m->nq);
      for (int j = 0; j < 3; j++) err = fmax(err, fabs(dp[j] - (cp.pos[j] - cm.pos[j]) / (2 * h)));
      for (int j = 0; j < 3; j++)
        errn = fmax(errn, fabs(dfr[j] - (cp.frame[j] - cm.frame[j]) / (2 * h)) * -con[c].dist);
      err = fmax(err, fabs(ddist - (cp.dist - cm.dist) / (2 * h)));
    }
  }
  fprintf(stderr, "derivative: clipped %d: %d contacts, motion off the differences by %.1e "
          "(pos, dist) %.1e (normal x depth)\n", i, ncon, err, errn);
  cr_expect_leq(err, 1e-8, "clipped %d: %g", i, err);
  cr_expect_leq(errn, 1e-9, "clipped %d: %g", i, errn);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, contact_clipped_motion) {
  int lines = 0;
  for (int i = 0; i < (int)(sizeof(CLIPPED) / sizeof(*CLIPPED)); i++) checkClipMotion(i, &lines);
  cr_expect_eq(lines, 7, "kinds of clipped points met: %d", lines);
}

// the models' A, B against central differences, each with velocities 0.2 sin(1.3 i + 0.7)
Test(derivative, contact_clipped) {
  for (int i = 0; i < (int)(sizeof(CLIPPED) / sizeof(*CLIPPED)); i++) {
    char name[16], xml[2048];
    snprintf(name, sizeof(name), "clipped%d", i);
    checkAt(name, clippedXML(i, xml, sizeof(xml)), mjINT_EULER, placed);
    checkAt(name, xml, mjINT_IMPLICITFAST, placed);
  }
}

// ---- multiccd's turned copies ------------------------------------------------------------------

// a fixed geom (geom 0, at the origin) and a free one, each pair one multiccd turns (mjc_Convex:
// no sphere or ellipsoid, a query of one contact); the convex solver tightened (its contacts on
// curved geoms within 1e-13 of the ideal ones); %s: the fixed geom, the free one
static const char* TURNED_FMT =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100' ccd_tolerance='1e-13'"
    " ccd_iterations='500'/><default><geom solimp='0.8 0.95 0.01 0.5 2'/></default>"
    "<asset><mesh name='c' scale='.1 .1 .05' vertex='-1 -1 -1 1 -1 -1 -1 1 -1 1 1 -1 -1 -1 1 "
    "1 -1 1 -1 1 1 1 1 1'/></asset><worldbody><geom %s/><body><freejoint/><geom %s/></body>"
    "</worldbody></mujoco>";

// the pairs: the fixed geom, the free one, its local orientation before the tilt (a quaternion),
// the local normal n from the fixed geom to it and the tolerance of the points' motion: a
// capsule lying on a mesh box's face and on a cylinder's cap, a cylinder lying on a mesh box's
// face with a margin (its rim's lowest point, which EPA finds on the rim rounded by the
// margin, a torus, to its tolerance only: there the differences of the point are noise of
// about sqrt(2 tol R) / h, up to 1e-2 measured, and of the normal up to 7e-7); each tilted by
// 2e-4 to 8e-4 rad, under multiccd's turn (1e-3): the turned copies touch at the other end
static const struct {
  const char *fixed, *free;
  mjtNum quat[4], n[3], ptol, ftol;
} TURNED[] = {
    {"type='mesh' mesh='c'", "type='capsule' size='.02 .06'", {0.7071067811865476, 0,
     0.7071067811865476, 0}, {0, 0, 1}, 1e-7, 1e-7},
    {"type='cylinder' size='.08 .05'", "type='capsule' size='.02 .05'", {0.7071067811865476,
     0, 0.7071067811865476, 0}, {0, 0, 1}, 1e-7, 1e-7},
    {"type='mesh' mesh='c' margin='.004'", "type='cylinder' size='.03 .04' margin='.004'",
     {0.7071067811865476, 0, 0.7071067811865476, 0}, {0, 0, 1}, 2e-2, 2e-6}};

// a number in [0, 1) from the state s (xorshift64)
static mjtNum uniform(unsigned long long* s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (mjtNum)(*s >> 11) / 9007199254740992.0;
}

// a random pose of pair i's free geom on the fixed one (depth 1 to 3 mm in along n), all of it
// turned by Q (the caller turns the fixed geom's geom_quat by as much): its orientation
// TURNED[i].quat turned about n by any angle, tilted by 2e-4 to 8e-4 rad about a random axis
// across n, the touching point off the fixed geom's center by up to 1 cm across n
static void placeOn(const mjModel* m, mjData* d, int i, const mjtNum Q[4],
                    unsigned long long* s) {
  const mjtNum* n = TURNED[i].n;
  mjtNum yaw[4], tilt[4], q[4], axis[3], across[3], pos[3], nw[3], t[4];
  mju_axisAngle2Quat(yaw, n, 2 * mjPI * uniform(s));
  mju_mulQuat(q, yaw, TURNED[i].quat);
  mjtNum r[3] = {uniform(s) - 0.5, uniform(s) - 0.5, uniform(s) - 0.5};
  mju_cross(axis, n, r);
  mju_normalize3(axis);
  mjtNum angle = (2e-4 + 6e-4 * uniform(s)) * (uniform(s) < 0.5 ? -1 : 1);
  mju_axisAngle2Quat(tilt, axis, angle);
  mju_mulQuat(t, tilt, q);
  mju_cross(across, n, axis);
  mju_scl3(pos, n, 0.3);
  mju_addToScl3(pos, across, 0.02 * (uniform(s) - 0.5));
  mju_rotVecQuat(d->qpos, pos, Q);
  mju_mulQuat(d->qpos + 3, Q, t);
  mju_rotVecQuat(nw, n, Q);
  mjtNum depth = 1e-3 + 2e-3 * uniform(s);
  for (int it = 0; it < 4; it++) {
    mj_fwdPosition(m, d);
    mju_addToScl3(d->qpos, nw, -(mj_geomDistance(m, d, 0, 1, 1, NULL) + depth));
  }
  mj_fwdPosition(m, d);
}

// placeOn with a random rotation of the whole pair (the fixed geom's own, no longer its body's)
static void turnedPose(mjModel* m, mjData* d, int i, unsigned long long* s) {
  m->geom_sameframe[0] = 0;
  for (int k = 0; k < 4; k++) m->geom_quat[k] = uniform(s) - 0.5;
  mju_normalize4(m->geom_quat);
  placeOn(m, d, i, m->geom_quat, s);
}

// the contact of d with turn value `turn` (mjContact's turn), NULL when none
static const mjContact* turnedContact(const mjData* d, int turn) {
  for (int i = 0; i < d->ncon; i++)
    if (d->contact[i].turn == turn) return d->contact + i;
  return NULL;
}

// the analytic motion (mjd_contactMotion) of every contact of pair i at random poses
// (turnedPose) against central differences (1e-6) of the engine's contacts (matched by their
// turn) under each dof's motion: dist within 1e-7, pos and the frame's rows within the pair's
// tolerances (measured on the flat faces: 2e-11 and 5e-9); at least four poses with turned
// copies, each differentiated (mjd_checkConstraint)
static void checkTurnedMotion(int i) {
  char xml[2048], err[300];
  snprintf(xml, sizeof(xml), TURNED_FMT, TURNED[i].fixed, TURNED[i].free);
  mjModel* m = load(xml, mjINT_EULER);
  mjData* d = mj_makeData(m);
  unsigned long long seed = 0x9E3779B97F4A7C15ull + (unsigned long long)i;
  int poses = 0, copies = 0;
  mjtNum h = 1e-6, errp = 0, errf = 0, errd = 0;
  for (int trial = 0; trial < 40 && poses < 6; trial++) {
    turnedPose(m, d, i, &seed);
    int ncon = d->ncon, nturn = 0;
    for (int c = 0; c < ncon; c++) nturn += d->contact[c].turn != 0;
    if (!nturn) continue;
    cr_assert_eq(mjd_checkConstraint(m, d, err, sizeof(err)), 0, "turned %d: %s", i, err);
    poses++, copies += nturn;
    mjContact con[ncon], cp, cm;
    memcpy(con, d->contact, sizeof(con));
    mjtNum q0[m->nq];
    mju_copy(q0, d->qpos, m->nq);
    for (int k = 0; k < m->nv; k++) {
      int b = m->dof_bodyid[k];
      for (int c = 0; c < ncon; c++) {
        mjtNum dp[3], dfr[9], ddist;
        mj_fwdPosition(m, d);
        mjd_contactMotion(m, d, d->contact + c, d->cdof + 6 * k,
                          d->subtree_com + 3 * m->body_rootid[b],
                          m->geom_bodyid[con[c].geom1] == b, m->geom_bodyid[con[c].geom2] == b,
                          dp, dfr, &ddist);
        int found = 1;
        for (int sg = -1; sg <= 1; sg += 2) {
          movedAlong(m, d, q0, k, sg * h);
          const mjContact* x = turnedContact(d, con[c].turn);
          if (!x) found = 0;
          else *(sg < 0 ? &cm : &cp) = *x;
        }
        mju_copy(d->qpos, q0, m->nq);
        cr_assert(found, "turned %d: copy %d gone within %g", i, con[c].turn, h);
        for (int j = 0; j < 3; j++)
          errp = fmax(errp, fabs(dp[j] - (cp.pos[j] - cm.pos[j]) / (2 * h)));
        for (int j = 0; j < 9; j++)
          errf = fmax(errf, fabs(dfr[j] - (cp.frame[j] - cm.frame[j]) / (2 * h)));
        errd = fmax(errd, fabs(ddist - (cp.dist - cm.dist) / (2 * h)));
      }
    }
    mj_fwdPosition(m, d);
  }
  fprintf(stderr, "derivative: turned %d: %d poses, %d copies, motion off the differences by "
          "%.1e (pos) %.1e (frame) %.1e (dist)\n", i, poses, copies, errp, errf, errd);
  cr_expect_geq(poses, 4, "turned %d: %d poses with turned copies", i, poses);
  cr_expect_leq(errp, TURNED[i].ptol, "turned %d: pos %g", i, errp);
  cr_expect_leq(errf, TURNED[i].ftol, "turned %d: frame %g", i, errf);
  cr_expect_leq(errd, 1e-7, "turned %d: dist %g", i, errd);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, contact_turned_motion) {
  for (int i = 0; i < (int)(sizeof(TURNED) / sizeof(*TURNED)); i++) checkTurnedMotion(i);
}

// the pair of TURNED the A, B test below places (turnedState)
static int turnedCase;

// pair turnedCase at the first placeOn pose (from seed 1) that has turned copies, velocities
// of every dof 0.2 sin(1.3 i + 0.7)
static void turnedState(const mjModel* m, mjData* d) {
  static const mjtNum eye[4] = {1, 0, 0, 0};
  unsigned long long seed = 1;
  int copies = 0;
  for (int trial = 0; trial < 40 && !copies; trial++) {
    placeOn(m, d, turnedCase, eye, &seed);
    for (int c = 0; c < d->ncon; c++) copies += d->contact[c].turn != 0;
  }
  cr_assert_gt(copies, 0, "turned %d: no pose with turned copies", turnedCase);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.2 * sin(1.3 * i + 0.7);
}

// the A, B of a capsule resting on a mesh box and on a cylinder's cap with multiccd's turned
// copies against central differences (the margin's pair: its differences' noise, 1.9e-6)
Test(derivative, contact_turned) {
  for (turnedCase = 0; turnedCase < 2; turnedCase++) {
    char name[16], xml[2048];
    snprintf(name, sizeof(name), "turned%d", turnedCase);
    snprintf(xml, sizeof(xml), TURNED_FMT, TURNED[turnedCase].fixed, TURNED[turnedCase].free);
    checkAt(name, xml, mjINT_EULER, turnedState);
    checkAt(name, xml, mjINT_IMPLICITFAST, turnedState);
  }
}

// a height field's prisms (GJK/EPA per prism): a sphere, a tilted capsule, a box and an
// irregular octahedron dropped on a tilted bumpy field (4 x 5 grid), 350 steps on: resting and
// rolling on the prisms' faces and edges; the convex solver tightened (its curved pairs are
// within ccd_tolerance of the ideal contact, whose derivative this is)
static const char* HFIELD =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'"
    " ccd_tolerance='1e-13' ccd_iterations='500'/>"
    "<default><geom solimp='0.8 0.95 0.01 0.5 2' friction='0.7 0.02 0.01'/></default>"
    "<asset><hfield name='h' nrow='4' ncol='5' size='1 0.8 0.3 0.1' elevation='0.1 0.3 0.2"
    " 0.5 0.4 0.2 0.6 0.3 0.1 0.3 0.4 0.2 0.7 0.5 0.2 0.3 0.5 0.1 0.4 0.6'/>"
    "<mesh name='oct' vertex='0.1 0 0 -0.09 0 0 0 0.08 0 0 -0.07 0 0 0 0.12 0 0 -0.1'/>"
    "</asset><worldbody><geom type='hfield' hfield='h' euler='3 2 0'/>"
    "<body pos='-0.3 -0.2 0.5'><freejoint/><geom type='sphere' size='0.07' mass='1'/></body>"
    "<body pos='0.2 0.1 0.5' euler='20 30 0'><freejoint/>"
    "<geom type='capsule' size='0.04 0.1' mass='0.8'/></body>"
    "<body pos='0.5 -0.3 0.5' euler='30 40 10'><freejoint/>"
    "<geom type='box' size='0.06 0.05 0.04' mass='0.7'/></body>"
    "<body pos='-0.5 0.3 0.5' euler='10 20 30'><freejoint/>"
    "<geom type='mesh' mesh='oct' mass='0.5'/></body></worldbody></mujoco>";

// the model's own initial state simulated for 190 Euler steps, whatever the model's integrator
// (every body down, every contact's features determined)
static void landed(const mjModel* m, mjData* d) {
  mjModel* e = mj_copyModel(m);
  e->opt.integrator = mjINT_EULER;
  mj_resetData(e, d);
  for (int i = 0; i < 190; i++) mj_step(e, d);
  mj_deleteModel(e);
  mj_forward(m, d);
  cr_assert_geq(d->ncon, 8, "%d contacts", d->ncon);
}

Test(derivative, contact_hfield) {
  checkAt("hfield", HFIELD, mjINT_EULER, landed);
  checkAt("hfield", HFIELD, mjINT_IMPLICITFAST, landed);

  // with a margin (raised prisms, inflated geoms): refused by name
  char err[300] = "";
  mjModel* m = load(HFIELD, mjINT_EULER);
  mjData* d = mj_makeData(m);
  landed(m, d);
  m->geom_margin[0] = 0.001;
  mj_forward(m, d);
  cr_assert_eq(mjd_transitionSmooth(m, d, NULL, NULL, NULL, NULL, err, sizeof(err)), -1);
  cr_expect(strstr(err, "hfield against") && strstr(err, "with a margin"), "%s", err);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the inertia-box fluid model (quadratic drag, viscosity, wind) on a free body carrying a
// hinged and a slid body, driven by a hinge motor and site thrusters (one clamped by its
// force range: its moment still turns): Euler and RK4 (the implicit integrators' matrix holds
// the fluid's velocity derivative: refused)
static const char* FLUID =
    "<mujoco><option timestep='0.002' density='900' viscosity='0.02' wind='0.3 -0.2 0.1'/>"
    "<worldbody><body pos='0 0 1'><freejoint/>"
    "<geom type='box' size='0.2 0.1 0.05' mass='2'/>"
    "<body pos='0.25 0 0'><joint name='h' axis='0 1 0' damping='0.01'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
    "<body pos='0.3 0 0'><joint type='slide' axis='1 0 0'/><geom size='0.05'/>"
    "<site name='tip' pos='0.05 0 0' euler='0.3 0.2 0.1'/></body>"
    "</body><site name='rotor' pos='-0.1 0.05 0.05' euler='0.2 -0.1 0'/></body></worldbody>"
    "<actuator><motor joint='h'/><motor site='rotor' gear='0 0.3 1 0.1 0 -0.2'/>"
    "<general site='tip' gear='1 0 0 0 0.1 0' gainprm='2' forcerange='-0.3 0.3'"
    " forcelimited='true'/></actuator></mujoco>";

Test(derivative, fluid) {
  check("fluid", FLUID, mjINT_EULER);
  check("fluid", FLUID, mjINT_RK4);
  char err[300];
  mjModel* m = load(FLUID, mjINT_IMPLICITFAST);
  mjData* d = mj_makeData(m);
  mjtNum A[18 * 18];
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, NULL, NULL, err, sizeof(err)), -1);
  cr_expect(strstr(err, "fluid forces under the implicit integrators") != NULL, "%s", err);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a spatial tendon through three sites on a hinged arm and a free ball, taut against its
// upper limit (the state pulled 2 cm past it), with friction loss: the segments' directions
// turn with the bodies
static const char* ROPE =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/><worldbody>"
    "<site name='s0' pos='0 0 1.2'/>"
    "<body pos='0 0 1'><joint name='h' axis='0 1 0' damping='0.1'/>"
    "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.03'/><site name='s1' pos='0.4 0 0'/>"
    "</body><body pos='0.7 0.1 0.6'><freejoint/><geom size='0.05'/><site name='s2'/></body>"
    "</worldbody><tendon><spatial limited='true' range='0 %g' frictionloss='0.05'>"
    "<site site='s0'/><site site='s1'/><site site='s2'/></spatial></tendon>"
    "<actuator><motor joint='h'/></actuator></mujoco>";

// the rope's model with its range 2 cm short of the tendon's length at setState's state (the
// limit row then present with the friction loss row)
Test(derivative, spatial_tendon) {
  char xml[2048];
  snprintf(xml, sizeof(xml), ROPE, 10.0);
  mjModel* m = load(xml, mjINT_EULER);
  mjData* d = mj_makeData(m);
  setState(m, d);
  mj_forward(m, d);
  mjtNum len = d->ten_length[0];
  snprintf(xml, sizeof(xml), ROPE, len - 0.02);
  mj_deleteData(d);
  mj_deleteModel(m);
  m = load(xml, mjINT_EULER);
  d = mj_makeData(m);
  setState(m, d);
  mj_forward(m, d);
  cr_assert_eq(d->nefc, 2, "rows: %d", d->nefc);
  mj_deleteData(d);
  mj_deleteModel(m);
  check("rope", xml, mjINT_EULER);
  check("rope", xml, mjINT_IMPLICITFAST);
  check("rope", xml, mjINT_RK4);
}

// ---- corpus robots along trajectories ---------------------------------------------------------

// analytic A, B against central differences at every `every`-th state of an n-step trajectory
// of the corpus model `file` from keyframe `key` (NULL: the default state) under controls
// ctrl0 + 0.3 sin(t + i), the Newton solver to tolerance 0 (the derivative is that of
// the exact solution; PGS's slow convergence leaves the differences noisy): within 1e-6 at
// states away from contact events (centralFD's two kinds); prints how many states are near
// one and how many refused.  ccd > 0: the general convex solver to tolerance ccd (its contacts
// on curved geoms then near enough the ideal ones whose derivative the analytic path takes)
static void checkTrajectory(const char* file, const char* key, int n, int every, mjtNum ccd) {
  char err[300];
  mjModel* m = loadExact(file);
  if (ccd > 0) m->opt.ccd_tolerance = ccd, m->opt.ccd_iterations = 500;
  mjData* d = mj_makeData(m);
  if (key) mj_resetDataKeyframe(m, d, mj_name2id(m, mjOBJ_KEY, key));
  int ndx = 2 * m->nv + m->na, nu = m->nu, states = 0, events[3] = {0}, refused = 0;
  mjtNum *A = malloc(sizeof(mjtNum) * ndx * ndx), *Af = malloc(sizeof(mjtNum) * ndx * ndx);
  mjtNum *B = malloc(sizeof(mjtNum) * ndx * nu), *Bf = malloc(sizeof(mjtNum) * ndx * nu);
  mjtNum *u0 = malloc(sizeof(mjtNum) * nu), worst = 0;
  mju_copy(u0, d->ctrl, nu);
  for (int s = 1; s <= n; s++) {
    for (int i = 0; i < nu; i++) d->ctrl[i] = u0[i] + 0.3 * sin(0.01 * s + i);
    mj_step(m, d);
    if (s % every) continue;
    states++;
    if (mjd_transitionSmooth(m, d, A, B, NULL, NULL, err, sizeof(err))) {
      fprintf(stderr, "derivative: %s step %d refused: %s\n", file, s, err);
      refused++;
      continue;
    }
    int event, nefc = d->nefc;
    centralFD(m, d, Af, Bf, &event);
    mjtNum ea = relErr(A, Af, ndx * ndx), eb = relErr(B, Bf, ndx * nu);
    events[0] += event > 0, events[1] += event & 1, events[2] += (event & 2) > 0;
    if (!event) worst = fmax(worst, fmax(ea, eb));
    if (!event) cr_expect_leq(fmax(ea, eb), 1e-6, "%s step %d (%d rows): A %g B %g", file, s,
                              nefc, ea, eb);
  }
  fprintf(stderr, "derivative: %s: %d states, %d near a contact event (%d changing rows, %d "
          "kinks), %d refused; worst error elsewhere %.2e\n", file, states, events[0],
          events[1], events[2], refused, worst);
  free(A), free(Af), free(B), free(Bf), free(u0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, humanoid_trajectory) {
  checkTrajectory("../shared/corpus/dm_control/humanoid.xml", NULL, 400, 10, 0);
}

Test(derivative, a1_trajectory) {
  checkTrajectory("../shared/corpus/menagerie/unitree_a1/scene.xml", "home", 500, 10, 0);
}

// the dog: noslip (4 sweeps, its cap hit at most states) on pyramidal contacts of capsules
// and spheres on the floor, capsules on capsules and on the target's thin cylinder (GJK/EPA's,
// to tolerance 1e-13: its default 1e-6 leaves the engine's contact that far from the ideal)
Test(derivative, dog_trajectory) {
  checkTrajectory("../shared/corpus/dm_control/dog.xml", NULL, 300, 20, 1e-13);
}

// no finite difference on the analytic path: the counter stays 0 and exactly one forward
// pass (the nominal one) runs inside mjd_transitionSmooth, without and with contacts
static void onePass(mjModel* m, void (*adjust)(const mjModel*, mjData*)) {
  char err[300];
  mjData* d = mj_makeData(m);
  adjust(m, d);
  int ndx = 2 * m->nv + m->na;
  mjtNum A[ndx * ndx];
  mjcb_time = ticks;
  long before = d->timer[mjTIMER_FORWARD].number;
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, NULL, NULL, err, sizeof(err)), 0, "%s",
               err);
  long passes = d->timer[mjTIMER_FORWARD].number - before;
  mjcb_time = NULL;
  cr_expect_eq(passes, 1, "%ld forward passes", passes);
  cr_expect_eq(mjd_analyticFD, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(derivative, no_finite_differences) {
  char xml[2048];
  snprintf(xml, sizeof(xml), CONTACT_FMT, "cone='elliptic'", "");
  onePass(load(FLOATING, mjINT_IMPLICIT), setState);
  onePass(load(xml, mjINT_EULER), sliding);
}

// a hinge coupled to a slide by a cubic joint equality, a third hinge to the first by a
// linear one, a fixed-tendon equality between two more (joint equalities soft enough to be
// violated as the bodies swing)
static const char* COUPLED =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/>"
    "<worldbody><body pos='0 0 1'><joint name='a' axis='0 1 0' damping='0.1'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<body pos='0 0 -0.6'><joint name='b' type='slide' axis='0 0.3 1'/>"
    "<inertial pos='0.1 0 0' mass='0.5' diaginertia='0.01 0.01 0.01'/></body></body>"
    "<body pos='1 0 1'><joint name='c' axis='1 0 0'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.7' diaginertia='0.01 0.02 0.01'/>"
    "<body pos='0 0 -0.4'><joint name='d' axis='0 1 0'/>"
    "<inertial pos='0 0 -0.2' mass='0.4' diaginertia='0.01 0.01 0.01'/></body></body>"
    "</worldbody><tendon><fixed name='t1'><joint joint='c' coef='1'/></fixed>"
    "<fixed name='t2'><joint joint='d' coef='0.5'/><joint joint='a' coef='0.2'/></fixed>"
    "</tendon><equality>"
    "<joint joint1='b' joint2='a' polycoef='0.01 0.3 -0.4 0.5 0' solimp='0.8 0.95 0.05'/>"
    "<joint joint1='c' joint2='a' polycoef='0 -0.7 0 0 0'/>"
    "<tendon tendon1='t1' tendon2='t2' polycoef='0 1 0.6 0 0'/>"
    "</equality><actuator><motor joint='a'/></actuator></mujoco>";

Test(derivative, equality) {
  checkAt("coupled", COUPLED, mjINT_EULER, NULL);
  checkAt("coupled", COUPLED, mjINT_IMPLICIT, NULL);
  checkAt("coupled", COUPLED, mjINT_RK4, NULL);
}

// more corpus models with contacts, limits, friction loss and fluid forces on every row the
// analytic path accepts, 10 states along 200 steps each
Test(derivative, corpus_trajectories) {
  static const char* const files[] = {
      "dm_control/cheetah.xml", "dm_control/finger.xml", "dm_control/hopper.xml",
      "dm_control/humanoid_CMU.xml", "dm_control/quadruped.xml", "dm_control/stacker.xml",
      "dm_control/walker.xml", "dm_control/cartpole.xml", "gymnasium/ant.xml",
      "gymnasium/humanoid.xml", "gymnasium/pusher.xml", "gymnasium/reacher.xml",
      "menagerie/anybotics_anymal_c/scene.xml", "menagerie/franka_emika_panda/scene.xml",
      "menagerie/agility_cassie/scene.xml", "dm_control/manipulator.xml",
      "dm_control/swimmer.xml", "dm_control/fish.xml", "gymnasium/swimmer.xml",
      "menagerie/pal_talos/scene_motor.xml", "menagerie/skydio_x2/scene.xml",
      "dm_control/ball_in_cup.xml"};
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    char path[256];
    snprintf(path, sizeof(path), "../shared/corpus/%s", files[i]);
    checkTrajectory(path, NULL, 200, 20, 0);
  }
}

// a closed loop: a double pendulum's tip connected to a second pendulum's (soft, so the
// anchors drift apart), a free box hung from the world by a connect at its corner, and a
// second free box welded to the first pendulum (torquescale 0.7, a relative pose); %s: the
// equality block, LOOP_BODIES's or LOOP_SITES's (the same held by turned sites, apart at
// qpos0: eq_objtype site)
static const char* LOOP_FMT =
    "<mujoco><option timestep='0.002' tolerance='0' iterations='100'/>"
    "<worldbody><site name='wo' pos='-0.85 0.1 1.05' euler='5 -10 20'/>"
    "<body name='a' pos='0 0 1'><joint name='h' axis='0 1 0' damping='0.1'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 -0.3' size='0.03' contype='0'/>"
    "<site name='as' pos='0.1 0.2 -0.2' euler='30 -20 10'/>"
    "<body name='b' pos='0.3 0 -0.3'><joint axis='0 1 0.2'/>"
    "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.03' contype='0'/>"
    "<site name='bs' pos='0.4 0.02 0'/></body></body>"
    "<body name='c' pos='0.7 0 1'><joint axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 0 0 0 -0.3' size='0.03' contype='0'/>"
    "<site name='cs' pos='0 0 -0.32'/></body>"
    "<body name='e' pos='-1 0 1'><freejoint/>"
    "<geom type='box' size='0.1 0.05 0.08' contype='0'/>"
    "<site name='es' pos='0.1 0.05 0.08' euler='0 40 0'/></body>"
    "<body name='w' pos='0.2 0.3 0.8' euler='10 20 30'><freejoint/>"
    "<geom type='box' size='0.05 0.1 0.07' contype='0'/>"
    "<site name='ws' pos='0.05 -0.1 0' euler='-25 15 40'/></body></worldbody>"
    "<equality>%s</equality><actuator><motor joint='h'/></actuator></mujoco>";
static const char* LOOP_BODIES =
    "<connect body1='b' body2='c' anchor='0.4 0 0' solimp='0.8 0.95 0.05'/>"
    "<connect body1='e' body2='world' anchor='0.1 0.05 0.08' solimp='0.8 0.95 0.05'/>"
    "<weld body1='w' body2='a' relpose='0.1 0.2 -0.3 0.9 0.1 0.3 0.2' torquescale='0.7'"
    " solimp='0.8 0.95 0.05'/>";
static const char* LOOP_SITES =
    "<connect site1='bs' site2='cs' solimp='0.8 0.95 0.05'/>"
    "<connect site1='es' site2='wo' solimp='0.8 0.95 0.05'/>"
    "<weld site1='ws' site2='as' torquescale='0.7' solimp='0.8 0.95 0.05'/>"
    "<weld site1='es' site2='wo' torquescale='1.3' solimp='0.8 0.95 0.05'/>";

// the loop's joints 0.03 sin(1.3 i + 0.2) off their reference (the anchors a few cm apart:
// within solimp's width, where the impedance has a slope by |pos|), setState's velocities
static void nearLoop(const mjModel* m, mjData* d) {
  mjtNum e[m->nv];
  mju_copy(d->qpos, m->qpos0, m->nq);
  for (int i = 0; i < m->nv; i++) {
    mju_zero(e, m->nv);
    e[i] = 1;
    mj_integratePos(m, d->qpos, e, 0.03 * sin(1.3 * i + 0.2));
  }
}

Test(derivative, connect) {
  static const int integ[] = {mjINT_EULER, mjINT_IMPLICITFAST, mjINT_RK4};
  char xml[4096];
  for (int k = 0; k < 2; k++) {
    snprintf(xml, sizeof(xml), LOOP_FMT, k ? LOOP_SITES : LOOP_BODIES);
    for (int i = 0; i < 3; i++) checkAt(k ? "siteloop" : "loop", xml, integ[i], nearLoop);
  }
}
