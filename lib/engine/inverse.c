// inverse.c: analytic inverse dynamics (mj_inverse, mj_inverseSkip, mj_invConstraint,
// mj_discreteAcc, mj_compareFwdInv; declared in mj.h).
//
// Given (qpos, qvel, qacc) the soft constraint model has a unique force: each row's force is
// the minimizer of its own convex cost at jar = J qacc - aref, independently of the others
// (the "diagonal problem" of the computation chapter), so no solver runs.  Then
//   qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint,
// the generalized force (applied + actuator + J' xfrc_applied) that produced qacc.
#include "engine/forward.h"
#include "engine/smooth.h"
#include "util/util.h"

// 1 when the conversion sees Euler's implicit dof damping: some dof damping and eulerdamp not
// disabled (as MuJoCo 3.5.1 decides here: unlike mj_Euler, a disabled damper still counts)
static int eulerDamped(const mjModel* m) {
  return !(m->opt.disableflags & mjDSBL_EULERDAMP) && mj_dofDamped(m);
}

// qacc of the integrator's step (discrete time) -> the continuous-time qacc of the same step:
// the integrators solve A qacc_disc = qfrc_smooth + qfrc_constraint = M qacc_cont, so
// qacc_cont = inv(M) A qacc_disc with A = M + h diag(B) (Euler, B the dof dampers' slopes at
// qvel), M - h D (implicit, implicitfast: D as the integrator builds and factors it); RK4 and
// undamped Euler: unchanged
void mj_discreteAcc(const mjModel* m, mjData* d) {
  int nv = m->nv, integ = m->opt.integrator;
  if (integ == mjINT_RK4 || (integ == mjINT_EULER && !eulerDamped(m))) return;
  size_t mark = mj_markStack(d);

  // qfrc = A qacc (A built before qfrc is taken: the stack peak stays the integrator's)
  mjtNum* qfrc;
  if (integ == mjINT_EULER) {
    qfrc = mj_stackAlloc(d, (size_t)nv);
    mj_mulM(m, d, qfrc, d->qacc);
    for (int i = 0; i < nv; i++)
      qfrc[i] += m->opt.timestep * mj_dofDampingSlope(m, d, i) * d->qacc[i];
  } else {
    mjtNum* A = mj_stackAlloc(d, (size_t)nv * nv);
    mj_implicitMatrix(m, d, A, integ == mjINT_IMPLICIT);
    qfrc = mj_stackAlloc(d, (size_t)nv);
    mju_mulMatVec(qfrc, A, d->qacc, nv, nv);
  }

  // qacc = inv(M) qfrc
  mj_solveM(m, d, d->qacc, qfrc, 1);
  mj_freeStack(d, mark);
}

// efc_force, efc_state and qfrc_constraint = J' efc_force at jar = J qacc - aref
void mj_invConstraint(const mjModel* m, mjData* d) {
  int nefc = d->nefc;
  if (!nefc) {
    mju_zero(d->qfrc_constraint, m->nv);
    return;
  }
  size_t mark = mj_markStack(d);
  mjtNum* jar = mj_stackAlloc(d, (size_t)nefc);
  mj_mulJacVec(m, d, jar, d->qacc);
  mju_subFrom(jar, d->efc_aref, nefc);
  mj_constraintUpdate(m, d, jar, NULL, 0);
  mj_freeStack(d, mark);
}

// inverse dynamics, skipping the stages before skipstage (mjtStage) and the sensors
void mj_inverseSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  int nv = m->nv, energy = m->opt.enableflags & mjENBL_ENERGY;
  size_t mark = mj_markStack(d);

  // position and velocity stages, with their sensors and energy
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    if (!skipsensor) mj_sensorPos(m, d);
    if (energy) mj_energyPos(m, d);
  }
  if (skipstage < mjSTAGE_VEL) {
    mj_fwdVelocity(m, d);
    if (!skipsensor) mj_sensorVel(m, d);
    if (energy) mj_energyVel(m, d);
  }

  // discrete-time qacc: keep it, work with the continuous one
  mjtNum* qacc_disc = NULL;
  if (m->opt.enableflags & mjENBL_INVDISCRETE) {
    qacc_disc = mj_stackAlloc(d, (size_t)nv);
    mju_copy(qacc_disc, d->qacc, nv);
    mj_discreteAcc(m, d);
  }

  // constraint forces, then qfrc_inverse = M qacc + bias - passive - constraint
  mj_invConstraint(m, d);
  mj_mulM(m, d, d->qfrc_inverse, d->qacc);
  for (int i = 0; i < nv; i++)
    d->qfrc_inverse[i] += d->qfrc_bias[i] - d->qfrc_passive[i] - d->qfrc_constraint[i];
  if (!skipsensor) mj_sensorAcc(m, d);

  if (qacc_disc) mju_copy(d->qacc, qacc_disc, nv);
  mj_freeStack(d, mark);
}

// inverse dynamics of the current (qpos, qvel, qacc)
void mj_inverse(const mjModel* m, mjData* d) { mj_inverseSkip(m, d, mjSTAGE_NONE, 0); }

// after the forward dynamics (mj_step with the fwdinv flag): run the inverse on the same
// state and record solver_fwdinv[0] = |qfrc_constraint forward - inverse| and
// solver_fwdinv[1] = |qfrc_inverse - (qfrc_applied + qfrc_actuator + J' xfrc_applied)|;
// efc_force and qfrc_constraint are restored, qfrc_inverse and efc_state keep the inverse's
void mj_compareFwdInv(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc;
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 0;
  if (!nefc) return;
  size_t mark = mj_markStack(d);
  mjtNum* qfrc_constraint = mj_stackAlloc(d, (size_t)nv);
  mjtNum* efc_force = mj_stackAlloc(d, (size_t)nefc);

  // the inverse on the forward's position and velocity stages
  mju_copy(qfrc_constraint, d->qfrc_constraint, nv);
  mju_copy(efc_force, d->efc_force, nefc);
  mj_inverseSkip(m, d, mjSTAGE_VEL, 1);

  // the two discrepancies (the applied forces: qfrc_smooth less its passive and bias parts,
  // which the inverse left as they were), then the forward's forces back
  mjtNum* dif = mj_stackAlloc(d, (size_t)nv);
  mju_sub(dif, qfrc_constraint, d->qfrc_constraint, nv);
  d->solver_fwdinv[0] = mju_norm(dif, nv);
  for (int i = 0; i < nv; i++)
    dif[i] = d->qfrc_inverse[i] - (d->qfrc_smooth[i] - d->qfrc_passive[i] + d->qfrc_bias[i]);
  d->solver_fwdinv[1] = mju_norm(dif, nv);
  mju_copy(d->qfrc_constraint, qfrc_constraint, nv);
  mju_copy(d->efc_force, efc_force, nefc);
  mj_freeStack(d, mark);
}
