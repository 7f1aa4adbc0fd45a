// derivative_fd.c: Jacobians of one step and of the inverse dynamics by finite differences
// (mjd_transitionFD, mjd_inverseFD, mj_differentiatePos; declared in mj.h), with the
// semantics of MuJoCo 3.5.1's functions of the same names.
//
// The state x = (dq, qvel, act) lives in the tangent space: a position perturbation dq (nv) is
// applied by mj_integratePos and measured by mj_differentiatePos, so quaternions move along
// rotation vectors.  One step maps (x, u = ctrl) to (x', s): the next state and the sensor
// values computed during the step (at x).  A column of the Jacobians is
//   forward   (y(x + eps e) - y(x)) / eps
//   centered  (y(x + eps e) - y(x - eps e)) / (2 eps)
// Every evaluation starts from the saved state, controls and warm start, so the solver of each
// perturbed step starts where the nominal one did.  A control with a limited range is moved
// only inside its range: at a bound the difference is one-sided (backward at the upper bound,
// forward at the lower), outside the range the column is zero (the clamp makes it constant).
#include "engine/forward.h"
#include "util/util.h"

// ---- tangent-space differences ----------------------------------------------------------------

// qvel = (qpos2 - qpos1) / dt on the joint manifold: quaternions by the local rotation vector r
// with qpos1 * exp(r) = qpos2 (the inverse of mj_integratePos)
void mj_differentiatePos(const mjModel* m, mjtNum* qvel, mjtNum dt, const mjtNum* qpos1,
                         const mjtNum* qpos2) {
  for (int j = 0; j < m->njnt; j++) {
    int pa = m->jnt_qposadr[j], va = m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int i = 0; i < 3; i++) qvel[va + i] = (qpos2[pa + i] - qpos1[pa + i]) / dt;
        pa += 3, va += 3;
        // fall through
      case mjJNT_BALL: {
        // normalized copies: the difference of two rotations, whatever the stored norms
        mjtNum q1[4], q2[4];
        mju_copy(q1, qpos1 + pa, 4);
        mju_copy(q2, qpos2 + pa, 4);
        mju_normalize(q1, 4);
        mju_normalize(q2, 4);
        mju_subQuat(qvel + va, q2, q1);
        for (int i = 0; i < 3; i++) qvel[va + i] /= dt;
        break;
      }
      default: qvel[va] = (qpos2[pa] - qpos1[pa]) / dt; break;
    }
  }
}

// ---- saved inputs -----------------------------------------------------------------------------

// what an evaluation changes in d and every evaluation starts from
typedef struct {
  mjtNum time;
  mjtNum *qpos, *qvel, *act, *ctrl, *warm, *qacc;  // nq, nv, na, nu, nv, nv
  mjWarningStat warning[mjNWARNING];
} Saved;

// the inputs of d into s (arrays on d's stack); 0, or -1 when the stack is too small
static int save(const mjModel* m, mjData* d, Saved* s) {
  s->qpos = mj_stackAlloc(d, (size_t)m->nq);
  s->qvel = mj_stackAlloc(d, (size_t)m->nv);
  s->act = mj_stackAlloc(d, (size_t)m->na);
  s->ctrl = mj_stackAlloc(d, (size_t)m->nu);
  s->warm = mj_stackAlloc(d, (size_t)m->nv);
  s->qacc = mj_stackAlloc(d, (size_t)m->nv);
  if (!s->qpos || !s->qvel || !s->act || !s->ctrl || !s->warm || !s->qacc) return -1;
  s->time = d->time;
  mju_copy(s->qpos, d->qpos, m->nq);
  mju_copy(s->qvel, d->qvel, m->nv);
  mju_copy(s->act, d->act, m->na);
  mju_copy(s->ctrl, d->ctrl, m->nu);
  mju_copy(s->warm, d->qacc_warmstart, m->nv);
  mju_copy(s->qacc, d->qacc, m->nv);
  memcpy(s->warning, d->warning, sizeof(s->warning));
  return 0;
}

// d's inputs back from s
static void restore(const mjModel* m, mjData* d, const Saved* s) {
  d->time = s->time;
  mju_copy(d->qpos, s->qpos, m->nq);
  mju_copy(d->qvel, s->qvel, m->nv);
  mju_copy(d->act, s->act, m->na);
  mju_copy(d->ctrl, s->ctrl, m->nu);
  mju_copy(d->qacc_warmstart, s->warm, m->nv);
  mju_copy(d->qacc, s->qacc, m->nv);
  memcpy(d->warning, s->warning, sizeof(s->warning));
}

// ---- the transition ---------------------------------------------------------------------------

// the outcome of one evaluation: next state (qpos nq, qvel nv, act na) and sensors (ns)
typedef struct {
  mjtNum *qpos, *qvel, *act, *sensor;
} Outcome;

// room for an outcome on d's stack; 0, or -1 when the stack is too small
static int outcomeAlloc(const mjModel* m, mjData* d, Outcome* o) {
  o->qpos = mj_stackAlloc(d, (size_t)m->nq);
  o->qvel = mj_stackAlloc(d, (size_t)m->nv);
  o->act = mj_stackAlloc(d, (size_t)m->na);
  o->sensor = mj_stackAlloc(d, (size_t)m->nsensordata);
  return o->qpos && o->qvel && o->act && o->sensor ? 0 : -1;
}

// one step from d's current inputs into o, then the saved inputs back into d; the stages
// before skipstage reused from the nominal step (still in d: a step's integration changes the
// state, not what the stages computed from it), the sensors skipped when not wanted
static void stepOutcome(const mjModel* m, mjData* d, const Saved* s, int skipstage,
                        int skipsensor, Outcome* o) {
  mj_stepSkip(m, d, skipstage, skipsensor);
  mju_copy(o->qpos, d->qpos, m->nq);
  mju_copy(o->qvel, d->qvel, m->nv);
  mju_copy(o->act, d->act, m->na);
  mju_copy(o->sensor, d->sensordata, m->nsensordata);
  restore(m, d, s);
}

// dy (ndx) = (hi - lo) / h in the tangent space, ds (ns) likewise for the sensors
static void outcomeDiff(const mjModel* m, const Outcome* lo, const Outcome* hi, mjtNum h,
                        mjtNum* dy, mjtNum* ds) {
  int nv = m->nv;
  mj_differentiatePos(m, dy, h, lo->qpos, hi->qpos);
  for (int i = 0; i < nv; i++) dy[nv + i] = (hi->qvel[i] - lo->qvel[i]) / h;
  for (int i = 0; i < m->na; i++) dy[2 * nv + i] = (hi->act[i] - lo->act[i]) / h;
  for (int i = 0; i < m->nsensordata; i++) ds[i] = (hi->sensor[i] - lo->sensor[i]) / h;
}

// the column of the difference of the evaluations that were made (plus, minus or both: at
// least one) around the nominal outcome; zero when neither was possible
static void column(const mjModel* m, const Outcome* nominal, const Outcome* plus,
                   const Outcome* minus, mjtNum eps, mjtNum* dy, mjtNum* ds) {
  if (plus && minus) outcomeDiff(m, minus, plus, 2 * eps, dy, ds);
  else if (plus) outcomeDiff(m, nominal, plus, eps, dy, ds);
  else if (minus) outcomeDiff(m, minus, nominal, eps, dy, ds);
  else {
    mju_zero(dy, 2 * m->nv + m->na);
    mju_zero(ds, m->nsensordata);
  }
}

// column c of the row-major (nr x nc) matrix M (NULL: none) = col
static void putColumn(mjtNum* M, int nr, int nc, int c, const mjtNum* col) {
  for (int r = 0; M && r < nr; r++) M[(size_t)r * nc + c] = col[r];
}

// 1 when [x1, x2] lies in the range [lo, hi]
static int inRange(mjtNum x1, mjtNum x2, const mjtNum range[2]) {
  return x1 >= range[0] && x1 <= range[1] && x2 >= range[0] && x2 <= range[1];
}

// A = dx'/dx (ndx x ndx), B = dx'/du (ndx x nu), C = ds/dx (ns x ndx), D = ds/du (ns x nu),
// row-major, ndx = 2 nv + na; any may be NULL.  Columns in MuJoCo's order of evaluation:
// controls and activations (their steps reuse the nominal position and velocity stages),
// velocities (the position stage), positions (every stage); the sensors only for C or D
int mjd_transitionFD(const mjModel* m, mjData* d, mjtNum eps, int flg_centered, mjtNum* A,
                     mjtNum* B, mjtNum* C, mjtNum* D) {
  int nv = m->nv, na = m->na, nu = m->nu, ns = m->nsensordata, ndx = 2 * nv + na;
  if (m->opt.integrator == mjINT_RK4 || m->nhistory) return -1;
  size_t mark = mj_markStack(d);
  Saved s;
  Outcome nominal, plus, minus;
  mjtNum* dy = mj_stackAlloc(d, (size_t)ndx);
  mjtNum* ds = mj_stackAlloc(d, (size_t)ns);
  mjtNum* dq = mj_stackAlloc(d, (size_t)nv);
  if (save(m, d, &s) || outcomeAlloc(m, d, &nominal) || outcomeAlloc(m, d, &plus) ||
      outcomeAlloc(m, d, &minus) || !dy || !ds || !dq) {
    mj_freeStack(d, mark);
    return -1;
  }

  // the nominal step
  int skipsensor = !C && !D;
  stepOutcome(m, d, &s, mjSTAGE_NONE, skipsensor, &nominal);

  // controls: inside their ranges only
  for (int i = 0; (B || D) && i < nu; i++) {
    const mjtNum* range = m->actuator_ctrlrange + 2 * i;
    int limited = m->actuator_ctrllimited[i];
    mjtNum u = s.ctrl[i];
    int fwd = !limited || inRange(u, u + eps, range);
    int back = (flg_centered || !fwd) && (!limited || inRange(u - eps, u, range));
    if (fwd) {
      d->ctrl[i] = u + eps;
      stepOutcome(m, d, &s, mjSTAGE_VEL, skipsensor, &plus);
    }
    if (back) {
      d->ctrl[i] = u - eps;
      stepOutcome(m, d, &s, mjSTAGE_VEL, skipsensor, &minus);
    }
    column(m, &nominal, fwd ? &plus : NULL, back ? &minus : NULL, eps, dy, ds);
    putColumn(B, ndx, nu, i, dy);
    putColumn(D, ns, nu, i, ds);
  }

  // activations, velocities and positions: column c of the tangent state
  for (int c = 2 * nv + na - 1; (A || C) && c >= 0; c--) {
    Outcome* side[2] = {&plus, &minus};
    for (int k = 0; k < 1 + flg_centered; k++) {
      mjtNum h = k ? -eps : eps;
      if (c >= 2 * nv) d->act[c - 2 * nv] += h;
      else if (c >= nv) d->qvel[c - nv] += h;
      else {
        // x + h e_c on the manifold: qpos integrated along dof c
        mju_zero(dq, nv);
        dq[c] = h;
        mj_integratePos(m, d->qpos, dq, 1);
      }
      int skip = c >= 2 * nv ? mjSTAGE_VEL : c >= nv ? mjSTAGE_POS : mjSTAGE_NONE;
      stepOutcome(m, d, &s, skip, skipsensor, side[k]);
    }
    column(m, &nominal, &plus, flg_centered ? &minus : NULL, eps, dy, ds);
    putColumn(A, ndx, ndx, c, dy);
    putColumn(C, ns, ndx, c, ds);
  }
  mj_freeStack(d, mark);
  return 0;
}

// ---- the inverse dynamics ---------------------------------------------------------------------

// the outputs of one inverse evaluation: force (nv), sensors (ns), inertia (nM)
typedef struct {
  mjtNum *force, *sensor, *qM;
} Inverse;

// room for an inverse outcome on d's stack; 0, or -1 when the stack is too small
static int inverseAlloc(const mjModel* m, mjData* d, Inverse* o) {
  o->force = mj_stackAlloc(d, (size_t)m->nv);
  o->sensor = mj_stackAlloc(d, (size_t)m->nsensordata);
  o->qM = mj_stackAlloc(d, (size_t)m->nM);
  return o->force && o->sensor && o->qM ? 0 : -1;
}

// mj_inverse at d's current inputs into o (force = qfrc_inverse, less qfrc_actuator with
// flg_actuation), then the saved inputs back into d
static void inverseOutcome(const mjModel* m, mjData* d, const Saved* s, int flg_actuation,
                           int skipsensor, Inverse* o) {
  mj_inverseSkip(m, d, mjSTAGE_NONE, skipsensor);
  mju_copy(o->force, d->qfrc_inverse, m->nv);
  if (flg_actuation) {
    mj_fwdActuation(m, d);
    for (int i = 0; i < m->nv; i++) o->force[i] -= d->qfrc_actuator[i];
  }
  mju_copy(o->sensor, d->sensordata, m->nsensordata);
  mju_copy(o->qM, d->qM, m->nM);
  restore(m, d, s);
}

// row j of the row-major (nr x n) matrix M (NULL: none) = (hi - lo) / eps
static void putRowDiff(mjtNum* M, int n, int j, const mjtNum* hi, const mjtNum* lo, mjtNum eps) {
  for (int i = 0; M && i < n; i++) M[(size_t)j * n + i] = (hi[i] - lo[i]) / eps;
}

// forward differences of the inverse dynamics, transposed as MuJoCo lays them out: row j is
// the derivative by qpos (tangent dof j), qvel j or qacc j of f = qfrc_inverse (less
// qfrc_actuator with flg_actuation: the force the actuators do not supply), the sensors and
// the sparse inertia qM.  DfDq, DfDv, DfDa (nv x nv), DsDq, DsDv, DsDa (nv x ns), DmDq (nv x
// nM); any may be NULL
int mjd_inverseFD(const mjModel* m, mjData* d, mjtNum eps, int flg_actuation, mjtNum* DfDq,
                  mjtNum* DfDv, mjtNum* DfDa, mjtNum* DsDq, mjtNum* DsDv, mjtNum* DsDa,
                  mjtNum* DmDq) {
  int nv = m->nv, ns = m->nsensordata;
  int skipsensor = !DsDq && !DsDv && !DsDa;
  if (m->nhistory) return -1;
  size_t mark = mj_markStack(d);
  Saved s;
  Inverse nominal, plus;
  mjtNum* dq = mj_stackAlloc(d, (size_t)nv);
  if (save(m, d, &s) || inverseAlloc(m, d, &nominal) || inverseAlloc(m, d, &plus) || !dq) {
    mj_freeStack(d, mark);
    return -1;
  }

  // the nominal inverse
  inverseOutcome(m, d, &s, flg_actuation, skipsensor, &nominal);

  // each dof: position (on the manifold), velocity, acceleration
  for (int j = 0; j < nv; j++) {
    if (DfDq || DsDq || DmDq) {
      mju_zero(dq, nv);
      dq[j] = eps;
      mj_integratePos(m, d->qpos, dq, 1);
      inverseOutcome(m, d, &s, flg_actuation, skipsensor, &plus);
      putRowDiff(DfDq, nv, j, plus.force, nominal.force, eps);
      putRowDiff(DsDq, ns, j, plus.sensor, nominal.sensor, eps);
      putRowDiff(DmDq, m->nM, j, plus.qM, nominal.qM, eps);
    }
    if (DfDv || DsDv) {
      d->qvel[j] += eps;
      inverseOutcome(m, d, &s, flg_actuation, skipsensor, &plus);
      putRowDiff(DfDv, nv, j, plus.force, nominal.force, eps);
      putRowDiff(DsDv, ns, j, plus.sensor, nominal.sensor, eps);
    }
    if (DfDa || DsDa) {
      d->qacc[j] += eps;
      inverseOutcome(m, d, &s, flg_actuation, skipsensor, &plus);
      putRowDiff(DfDa, nv, j, plus.force, nominal.force, eps);
      putRowDiff(DsDa, ns, j, plus.sensor, nominal.sensor, eps);
    }
  }
  mj_freeStack(d, mark);
  return 0;
}
