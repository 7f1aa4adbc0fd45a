// t/unit/engine/inverse.c: inverse dynamics (lib/engine/inverse.c) by round trips: the forward
// dynamics (converged Newton solver) maps forces to accelerations, and mj_inverse must map the
// accelerations back to the applied forces, qfrc_applied + qfrc_actuator, to 1e-8 (relative to the
// largest force involved); the integrators' discrete accelerations back through invdiscrete; the
// fwdinv statistics against independent norms.  MuJoCo's own numbers for the same functions are
// compared by t/oracle/inverse.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mj.h"
#include "engine/smooth.h"

// a chain with a limited, damped hinge with friction loss, a slide, a limited ball joint,
// an equality (connect) and a joint coupling, a tendon limit; a free box and a capsule on a
// plane (condim 3 and 6), a sphere with condim 4; motors and a position servo
static const char* MODEL =
  "<mujoco><option timestep='0.004'/><worldbody>"
  "<geom type='plane' size='5 5 0.1'/>"
  "<body name='a' pos='0 0 0.5'>"
  "<joint name='h' axis='0 1 0' range='-0.5 0.5' damping='0.4' frictionloss='0.05'/>"
  "<geom type='capsule' size='0.04' fromto='0 0 0 0.3 0 0'/><site name='sa' pos='0.1 0 0'/>"
  "<body pos='0.3 0 0'><joint name='s' type='slide' axis='1 0 0' damping='1'/>"
  "<geom type='capsule' size='0.04' fromto='0 0 0 0.3 0 0'/>"
  "<body name='c' pos='0.3 0 0'><joint name='b' type='ball' range='0 0.4' damping='0.2'/>"
  "<geom type='box' size='0.08 0.04 0.03' pos='0.08 0 0'/><site name='sc' pos='0.16 0 0'/>"
  "</body></body></body>"
  "<body name='box' pos='1 0 0.05'><freejoint/><geom type='box' size='0.1 0.07 0.05'/></body>"
  "<body pos='1.5 0 0.05' euler='0 90 0'><freejoint/>"
  "<geom type='capsule' size='0.05 0.15' condim='6' friction='0.8 0.02 0.01'/></body>"
  "<body pos='2 0 0.1'><freejoint/><geom type='sphere' size='0.1' condim='4'/></body>"
  "</worldbody>"
  "<tendon><spatial name='t' limited='true' range='0 0.55'><site site='sa'/><site site='sc'/>"
  "</spatial></tendon>"
  "<equality><connect body1='c' anchor='0.16 0 0' solref='0.02 1'/>"
  "<joint joint1='s' polycoef='0.05 0 0 0 0'/></equality>"
  "<actuator><motor joint='h' gear='3'/><position joint='s' kp='30' kv='2'/></actuator>"
  "</mujoco>";

// the model with converged Newton options: tolerance 1e-12, 200 iterations, exact line search
static mjModel* load(const char* xml, const char* cone) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(xml, "t.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  const char* opts[] = {"tolerance=1e-12", "iterations=200", "ls_tolerance=1e-12",
                        "ls_iterations=100", cone};
  for (int i = 0; i < 5; i++)
    cr_assert(!mj_setOptionString(m, opts[i], err, sizeof(err)), "%s", err);
  return m;
}

// controls, applied forces and a perturbed velocity, then n steps so that contacts settle
static void settle(const mjModel* m, mjData* d, int n) {
  mj_resetData(m, d);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.4 + 0.3 * i;
  for (int i = 0; i < m->nv; i++) {
    d->qfrc_applied[i] = 0.3 * cos(1.3 * i);
    d->qvel[i] = 0.2 * sin(1.7 * i + 0.5);
  }
  for (int k = 0; k < n; k++) mj_step(m, d);
}

// max |a - b| / max(1, max |c|)
static mjtNum relErr(const mjtNum* a, const mjtNum* b, const mjtNum* c, int n) {
  mjtNum diff = 0, scale = 1;
  for (int i = 0; i < n; i++) {
    diff = fmax(diff, fabs(a[i] - b[i]));
    scale = fmax(scale, fabs(c[i]));
  }
  return diff / scale;
}

// after mj_forward: the applied forces into want, the constraint forces into qc
static void forwardForces(const mjModel* m, mjData* d, mjtNum* want, mjtNum* qc) {
  mj_forward(m, d);
  for (int i = 0; i < m->nv; i++) want[i] = d->qfrc_applied[i] + d->qfrc_actuator[i];
  memcpy(qc, d->qfrc_constraint, sizeof(mjtNum) * m->nv);
}

// forward, then inverse at the forward's qacc, under a cone: the forces come back
static void roundTrip(const char* cone) {
  mjModel* m = load(MODEL, cone);
  mjData* d = mj_makeData(m);
  settle(m, d, 150);
  mjtNum want[64], qc[64], efc[256];
  forwardForces(m, d, want, qc);
  int nefc = d->nefc;
  cr_assert(nefc > 20 && nefc <= 256 && d->ncon >= 4, "nefc %d ncon %d", nefc, d->ncon);
  memcpy(efc, d->efc_force, sizeof(mjtNum) * nefc);
  mj_inverse(m, d);
  mjtNum e = relErr(d->qfrc_inverse, want, qc, m->nv);
  cr_expect(e < 1e-8, "%s: qfrc_inverse off by %g", cone, e);
  e = relErr(d->qfrc_constraint, qc, qc, m->nv);
  cr_expect(e < 1e-8, "%s: qfrc_constraint off by %g", cone, e);
  e = relErr(d->efc_force, efc, efc, nefc);
  cr_expect(e < 1e-8, "%s: efc_force off by %g", cone, e);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(inverse, roundtrip_pyramidal) { roundTrip("cone=pyramidal"); }
Test(inverse, roundtrip_elliptic) { roundTrip("cone=elliptic"); }

// without constraint rows no solver is involved: exact to round-off, also for a state that
// is not at rest (the initial one)
Test(inverse, roundtrip_smooth) {
  mjModel* m = load(MODEL, "cone=pyramidal");
  m->opt.disableflags |= mjDSBL_CONSTRAINT;
  mjData* d = mj_makeData(m);
  settle(m, d, 0);
  mjtNum want[64], qc[64];
  forwardForces(m, d, want, qc);
  cr_assert_eq(d->nefc, 0);
  mj_inverse(m, d);
  mjtNum e = relErr(d->qfrc_inverse, want, d->qfrc_bias, m->nv);
  cr_expect(e < 1e-13, "qfrc_inverse off by %g", e);
  for (int i = 0; i < m->nv; i++) cr_expect_eq(d->qfrc_constraint[i], 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// one step of an integrator from the settled state: qacc = (qvel' - qvel) / h is discrete;
// with invdiscrete the inverse returns the forces (and leaves d->qacc as given), without it
// (the damped Euler step) it does not
static void discrete(const char* integrator) {
  mjModel* m = load(MODEL, "cone=elliptic");
  char err[256];
  cr_assert(!mj_setOptionString(m, integrator, err, sizeof(err)), "%s", err);
  mjData* d = mj_makeData(m);
  settle(m, d, 150);
  int nq = m->nq, nv = m->nv;
  mjtNum qpos[64], qvel[64], want[64], qc[64], qacc[64];
  memcpy(qpos, d->qpos, sizeof(mjtNum) * nq);
  memcpy(qvel, d->qvel, sizeof(mjtNum) * nv);
  forwardForces(m, d, want, qc);
  mj_step(m, d);
  for (int i = 0; i < nv; i++) qacc[i] = (d->qvel[i] - qvel[i]) / m->opt.timestep;

  // the state of the step with its discrete acceleration
  memcpy(d->qpos, qpos, sizeof(mjtNum) * nq);
  memcpy(d->qvel, qvel, sizeof(mjtNum) * nv);
  memcpy(d->qacc, qacc, sizeof(mjtNum) * nv);
  m->opt.enableflags |= mjENBL_INVDISCRETE;
  mj_inverse(m, d);
  mjtNum e = relErr(d->qfrc_inverse, want, qc, nv);
  cr_expect(e < 1e-8, "%s: qfrc_inverse off by %g", integrator, e);
  cr_expect(!memcmp(d->qacc, qacc, sizeof(mjtNum) * nv), "%s: qacc changed", integrator);

  // the same acceleration taken as continuous misses the damping (h B qacc is not small)
  m->opt.enableflags &= ~mjENBL_INVDISCRETE;
  mj_inverse(m, d);
  e = relErr(d->qfrc_inverse, want, qc, nv);
  cr_expect(e > 1e-6, "%s: the discrete qacc inverted as continuous: off by only %g",
            integrator, e);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(inverse, invdiscrete_euler) { discrete("integrator=Euler"); }
Test(inverse, invdiscrete_implicit) { discrete("integrator=implicit"); }
Test(inverse, invdiscrete_implicitfast) { discrete("integrator=implicitfast"); }

// fwdinv through mj_step: a converged solve makes both discrepancies tiny; a 2-iteration PGS
// makes them the norms of the forward/inverse differences, computed here independently
Test(inverse, fwdinv) {
  mjModel* m = load(MODEL, "cone=pyramidal");
  m->opt.enableflags |= mjENBL_FWDINV;
  mjData* d = mj_makeData(m);
  settle(m, d, 150);
  mjtNum want[64], qc[64];
  forwardForces(m, d, want, qc);
  mj_step(m, d);
  mjtNum scale = 1;
  for (int i = 0; i < m->nv; i++) scale = fmax(scale, fabs(qc[i]));
  cr_expect(d->solver_fwdinv[0] < 1e-8 * scale, "fwdinv[0] = %g", d->solver_fwdinv[0]);
  cr_expect(d->solver_fwdinv[1] < 1e-8 * scale, "fwdinv[1] = %g", d->solver_fwdinv[1]);

  // an unconverged solve: rerun the comparison by hand and by the library
  m->opt.solver = mjSOL_PGS;
  m->opt.iterations = 2;
  forwardForces(m, d, want, qc);
  mjtNum efc[256];
  int nefc = d->nefc;
  cr_assert(nefc > 0 && nefc <= 256);
  memcpy(efc, d->efc_force, sizeof(mjtNum) * nefc);
  mj_compareFwdInv(m, d);
  mjtNum n1 = 0;
  for (int i = 0; i < m->nv; i++)
    n1 += (d->qfrc_inverse[i] - want[i]) * (d->qfrc_inverse[i] - want[i]);
  cr_expect(d->solver_fwdinv[1] > 1e-3, "fwdinv[1] = %g: PGS converged?", d->solver_fwdinv[1]);
  cr_expect(fabs(d->solver_fwdinv[1] - sqrt(n1)) < 1e-9 * scale, "fwdinv[1] %g, |diff| %g",
            d->solver_fwdinv[1], sqrt(n1));

  // the forward's forces are restored, so the constraint difference is taken by the inverse
  cr_expect(!memcmp(d->efc_force, efc, sizeof(mjtNum) * nefc));
  cr_expect(!memcmp(d->qfrc_constraint, qc, sizeof(mjtNum) * m->nv));
  mj_inverseSkip(m, d, mjSTAGE_VEL, 1);
  mjtNum m0 = 0;
  for (int i = 0; i < m->nv; i++)
    m0 += (qc[i] - d->qfrc_constraint[i]) * (qc[i] - d->qfrc_constraint[i]);
  cr_expect(fabs(d->solver_fwdinv[0] - sqrt(m0)) < 1e-9 * scale, "fwdinv[0] %g, |diff| %g",
            d->solver_fwdinv[0], sqrt(m0));
  mj_deleteData(d);
  mj_deleteModel(m);
}

// without constraint rows the comparison is zero and touches nothing else
Test(inverse, fwdinv_without_rows) {
  mjModel* m = load(MODEL, "cone=pyramidal");
  m->opt.disableflags |= mjDSBL_CONSTRAINT;
  mjData* d = mj_makeData(m);
  settle(m, d, 0);
  mj_forward(m, d);
  d->qfrc_inverse[0] = 123;
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 5;
  mj_compareFwdInv(m, d);
  cr_expect_eq(d->solver_fwdinv[0], 0);
  cr_expect_eq(d->solver_fwdinv[1], 0);
  cr_expect_eq(d->qfrc_inverse[0], 123);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the discrete-to-continuous conversion of Euler: M qacc_c = (M + h B) qacc_d, checked
// through the residual; undamped Euler and RK4 leave qacc as it is
Test(inverse, discrete_acc) {
  mjModel* m = load(MODEL, "cone=pyramidal");
  mjData* d = mj_makeData(m);
  settle(m, d, 0);
  mj_forward(m, d);
  int nv = m->nv;
  mjtNum qd[64], lhs[64], rhs[64];
  for (int i = 0; i < nv; i++) d->qacc[i] = qd[i] = sin(0.7 * i + 0.2);
  m->opt.integrator = mjINT_EULER;
  mj_discreteAcc(m, d);
  mj_mulM(m, d, lhs, d->qacc);
  mj_mulM(m, d, rhs, qd);
  for (int i = 0; i < nv; i++) rhs[i] += m->opt.timestep * m->dof_damping[i] * qd[i];
  cr_expect(relErr(lhs, rhs, rhs, nv) < 1e-14, "Euler residual %g", relErr(lhs, rhs, rhs, nv));

  // RK4, and Euler with eulerdamp disabled: unchanged
  int integ[2] = {mjINT_RK4, mjINT_EULER};
  for (int k = 0; k < 2; k++) {
    m->opt.integrator = integ[k];
    m->opt.disableflags |= k ? mjDSBL_EULERDAMP : 0;
    memcpy(d->qacc, qd, sizeof(mjtNum) * nv);
    mj_discreteAcc(m, d);
    cr_expect(!memcmp(d->qacc, qd, sizeof(mjtNum) * nv), "integrator %d changed qacc", integ[k]);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}
