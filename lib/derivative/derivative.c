// derivative.c: exact analytic derivatives of the smooth dynamics and of one step of the
// Euler, implicit, implicitfast and RK4 integrators (mjd_checkAnalytic, mjd_smoothAcc,
// mjd_transitionSmooth in mj.h; the RNE's derivative in derivative.h; the constraint solve by the
// implicit function theorem in derivative_constraint.c, which accDeriv calls when there are
// constraint rows, and through noslip's sweeps after it in derivative_noslip.c; the sensors'
// C and D in derivative_sensor.c, which accDeriv calls with the forward acceleration's
// derivative before turning it into the integrator's).  No
// finite difference anywhere: the only pipeline evaluations are the nominal mj_forward and
// RK4's own stages.
//
// The state is the tangent vector x = (dq, v, act) of size 2 nv + na (MuJoCo's), u = ctrl.
// Without constraint rows a step solves W a' = f for the integrator's acceleration a', then
//   v' = v + h a',   q' = q (+) h v' (mj_integratePos),   act' = act + c act_dot
// with f = qfrc_smooth, c = h (filterexact: tau (1 - exp(-h/tau))) and
//   W = M (no step: qacc itself), M + h diag(b) (Euler; b the dof dampers' slopes at v), M - h D
//   (implicit: D the velocity derivative of f with the RNE term; implicitfast: without it, on
//   qM's sparsity).
// Differentiating W a' = f at the solution:  W da'/dx = df/dx - (dW/dx) a' =: G.  The pieces:
//   df/dq - (dM/dq) a' = d(passive + actuator)/dq - d rne(q, v, a')/dq
//   df/dv = d(passive + actuator)/dv - d rne/dv      (both from one composite sweep, rneAt)
//   implicit: D's RNE part is -2 B(q; v, .), B the bilinear velocity term of rne, so
//     d(W a')/dq gains h d/dq [c0(v + a') - c0(v) - c0(a')] (c0: rne without gravity and
//     acceleration; the polarization of 2 B(v, a')) and d(W a')/dv gains h dc0/dv at a'
//   implicit and implicitfast: the actuator terms moment' k moment of D depend on ctrl and act
//     through affine gains (k as mj_actuatorForceVel computes it, on W's sparsity)
//   polynomial dampers: their slopes in W depend on v (and a spatial tendon's on q): damperCurve
// The step's Jacobians follow by the chain rule, quaternions by SO(3)'s right Jacobian Jr:
//   q' = q exp(h v')  =>  dq' = exp(-h v') dq + Jr(h v') h dv'   (local rotation vectors);
// RK4 chains the same pieces through its stages (rk4Jac).
#include "derivative/derivative.h"

#include <math.h>
#include <stdio.h>

#include "engine/forward.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// finite-difference evaluations made inside the analytic path (mj.h): there are none
_Atomic long mjd_analyticFD = 0;

// the integrator's acceleration system W a' = f
enum { SYS_QACC = 0, SYS_EULER, SYS_IMPLICIT, SYS_FAST };

// ---- what the analytic path differentiates -----------------------------------------------------

// 'name' of object id into buf (the index when unnamed)
static const char* objName(const mjModel* m, int type, int id, char* buf, int n) {
  const char* name = mj_id2name(m, type, id);
  if (name && name[0]) snprintf(buf, n, "'%s'", name);
  else snprintf(buf, n, "%d", id);
  return buf;
}

// 1 when tendon t is fixed (a linear combination of joint positions: a constant Jacobian)
int mjd_tendonFixed(const mjModel* m, int t) {
  for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++)
    if (m->wrap_type[w] != mjWRAP_JOINT) return 0;
  return 1;
}

// 0 when every feature of m the smooth step uses is differentiated; else -1 and a message
static int checkModel(const mjModel* m, char* err, int errsz) {
  char nm[64];
  int implicit = m->opt.integrator == mjINT_IMPLICIT || m->opt.integrator == mjINT_IMPLICITFAST;
  int jointActfrc = 0;
  for (int j = 0; j < m->njnt; j++) jointActfrc |= m->jnt_actfrclimited[j];
  if (mj_fluidOn(m) && implicit) {
    snprintf(err, errsz, "fluid forces under the implicit integrators: not differentiated yet");
    return -1;
  }
  if (m->nhistory) {
    snprintf(err, errsz, "history buffers (nsample, delay): not differentiated yet");
    return -1;
  }
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum poly[mjNPOLY], b = mj_damping(m, mjOBJ_TENDON, t, poly);
    int used = m->tendon_stiffness[t] || b || !mju_isZero(poly, mjNPOLY) ||
               !mju_isZero(m->tendon_stiffnesspoly + mjNPOLY * t, mjNPOLY);
    for (int i = 0; i < m->nu; i++)
      used |= m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2 * i] == t;
    int spatial = used && !mjd_tendonFixed(m, t);
    const char* what = mj_armature(m, mjOBJ_TENDON, t) && !mjd_tendonFixed(m, t)
                           ? "armature on a spatial tendon"
                       : spatial && !mjd_tendonSitesOnly(m, t)
                           ? "spatial tendon with forces wrapping geoms or over pulleys"
                       : spatial && jointActfrc ? "spatial tendon with forces beside joint "
                                                  "actfrcrange"
                       : used && m->tendon_actfrclimited[t] ? "actfrcrange" : NULL;
    if (what) {
      snprintf(err, errsz, "tendon %s: %s: not differentiated yet",
               objName(m, mjOBJ_TENDON, t, nm, sizeof(nm)), what);
      return -1;
    }
  }
  for (int i = 0; i < m->nu; i++) {
    int trn = m->actuator_trntype[i], id = m->actuator_trnid[2 * i], dyn = m->actuator_dyntype[i];
    int jt = id >= 0 && id < m->njnt ? m->jnt_type[id] : -1;
    const mjtNum *gp = m->actuator_gainprm + 10 * i, *bp = m->actuator_biasprm + 10 * i;
    int site = trn == mjTRN_SITE && m->actuator_trnid[2 * i + 1] < 0;
    int still = !gp[1] && !gp[2] && !bp[1] && !bp[2];
    const char* what =
        (trn == mjTRN_JOINT || trn == mjTRN_JOINTINPARENT) && jt != mjJNT_HINGE &&
                jt != mjJNT_SLIDE ? "transmission on a ball or free joint"
        : site && !still ? "site transmission with length or velocity terms"
        : trn != mjTRN_JOINT && trn != mjTRN_JOINTINPARENT && trn != mjTRN_TENDON && !site
            ? "slider-crank, body or reference-site transmission"
        : dyn == mjDYN_USER ? "user dynamics"
        : dyn == mjDYN_DCMOTOR && (m->actuator_actnum[i] || bp[0])
            ? "DC motor with a current state or cogging"
        : m->actuator_actnum[i] > 1 ? "more than one activation"
        : m->actuator_gaintype[i] == mjGAIN_USER ? "user gain"
        : m->actuator_biastype[i] == mjBIAS_USER ? "user bias"
        : NULL;
    if (what) {
      snprintf(err, errsz, "actuator %s: %s: not differentiated yet",
               objName(m, mjOBJ_ACTUATOR, i, nm, sizeof(nm)), what);
      return -1;
    }
  }
  return 0;
}

// the model check, then what the state of d uses: its constraint rows (after mj_forward)
int mjd_checkAnalytic(const mjModel* m, const mjData* d, char* err, int errsz) {
  return checkModel(m, err, errsz) || mjd_checkConstraint(m, d, err, errsz) ? -1 : 0;
}

// ---- SO(3) -------------------------------------------------------------------------------------

// Jr(r) = I - (1 - cos t)/t^2 K + (t - sin t)/t^3 K^2, inverse I + K/2 + (1/t^2 - (1 + cos t)
// /(2 t sin t)) K^2, K = [r]x, t = |r|; below t = 1e-4 the series 1/2 - t^2/24,
// 1/6 - t^2/120 and 1/12 + t^2/720 (exact to rounding there)
void mjd_rightJacobian(const mjtNum r[3], mjtNum J[9], int inv) {
  mjtNum t2 = mju_dot3(r, r), t = sqrt(t2), c1, c2;
  if (t < 1e-4) {
    c1 = inv ? 0.5 : -(0.5 - t2 / 24);
    c2 = inv ? 1.0 / 12 + t2 / 720 : 1.0 / 6 - t2 / 120;
  } else {
    c1 = inv ? 0.5 : -(1 - cos(t)) / t2;
    c2 = inv ? 1 / t2 - (1 + cos(t)) / (2 * t * sin(t)) : (t - sin(t)) / (t2 * t);
  }
  // K^2 = r r' - t^2 I
  const mjtNum K[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      J[3 * i + j] = (i == j) * (1 - c2 * t2) + c1 * K[3 * i + j] + c2 * r[i] * r[j];
}

// ---- the derivative of the inverse dynamics (RNE) ----------------------------------------------

// frc = I acc + vel x* (I vel): the net force of a body of com inertia I
static void bodyForce(const mjtNum I[10], const mjtNum acc[6], const mjtNum vel[6],
                      mjtNum frc[6]) {
  mjtNum iv[6], vxiv[6];
  mju_mulInertVec(frc, I, acc);
  mju_mulInertVec(iv, I, vel);
  mju_crossForce(vxiv, vel, iv);
  mju_addTo6(frc, vxiv);
}

// the first dof whose cdof moves when dof k moves: k itself, except that the rotations of a
// ball or free joint turn one another (body-frame axes), so all three move together
int mjd_firstMoved(const mjModel* m, int k) {
  int j = m->dof_jntid[k], adr = m->jnt_dofadr[j];
  if (m->jnt_type[j] == mjJNT_BALL) return adr;
  if (m->jnt_type[j] == mjJNT_FREE && k >= adr + 3) return adr + 3;
  return k;
}

// the last dof of dof k's group, the dofs whose cdof_dot do not see qvel_k: k itself, a ball's
// three rotations, a free joint's three translations or three rotations (mj_comVel)
static int groupEnd(const mjModel* m, int k) {
  int j = m->dof_jntid[k], adr = m->jnt_dofadr[j];
  if (m->jnt_type[j] == mjJNT_BALL) return adr + 2;
  if (m->jnt_type[j] == mjJNT_FREE) return k < adr + 3 ? adr + 2 : adr + 5;
  return k;
}

// K (6x6 column-major, += here) of U -> I (U x V) + U x* h + V x* (I U), h = I V: the part of
// a body's net force slope that is linear in a motion U of its velocity's frame
static void addCoriolisMatrix(const mjtNum I[10], const mjtNum V[6], const mjtNum h[6],
                              mjtNum K[36]) {
  for (int c = 0; c < 6; c++) {
    mjtNum e[6] = {0, 0, 0, 0, 0, 0}, t[6], iu[6], *Kc = K + 6 * c;
    e[c] = 1;
    mju_crossMotion(t, e, V);
    mju_mulInertVec(iu, I, t);
    mju_addTo6(Kc, iu);
    mju_crossForce(t, e, h);
    mju_addTo6(Kc, t);
    mju_mulInertVec(iu, I, e);
    mju_crossForce(t, V, iu);
    mju_addTo6(Kc, t);
  }
}

// c's arrays on d's stack for m's bodies (derivative.h)
void mjd_compositeAlloc(const mjModel* m, mjData* d, mjdComposite* c) {
  size_t nbody = m->nbody;
  c->cacc = mj_stackAlloc(d, 6 * nbody);
  c->frc = mj_stackAlloc(d, 6 * nbody);
  c->inert = mj_stackAlloc(d, 10 * nbody);
  c->cor = mj_stackAlloc(d, 36 * nbody);
  c->mom = mj_stackAlloc(d, 6 * nbody);
}

// the nominal RNE sweep (derivative.h): accelerations from -gravity at the world, then per
// body its net force, inertia, K (0 for a body at rest) and momentum, summed over the subtrees
void mjd_rneComposites(const mjModel* m, const mjData* d, const mjtNum* v, const mjtNum* cvel,
                       const mjtNum* cdofdot, const mjtNum* a, int gravity, mjdComposite* c) {
  mju_zero(c->cacc, 6);
  if (gravity && !(m->opt.disableflags & mjDSBL_GRAVITY)) {
    mju_scl3(c->cacc + 3, m->opt.gravity, -1);
  }
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum *I = d->cinert + 10 * b, *V = cvel + 6 * b;
    mjtNum* Ab = c->cacc + 6 * b;
    mju_copy6(Ab, c->cacc + 6 * m->body_parentid[b]);
    for (int j = m->body_dofadr[b]; j < m->body_dofadr[b] + m->body_dofnum[b]; j++) {
      mju_addToScl6(Ab, cdofdot + 6 * j, v[j]);
      if (a) mju_addToScl6(Ab, d->cdof + 6 * j, a[j]);
    }
    bodyForce(I, Ab, V, c->frc + 6 * b);
    mju_copy(c->inert + 10 * b, I, 10);
    mju_mulInertVec(c->mom + 6 * b, I, V);
    mju_zero(c->cor + 36 * b, 36);
    if (V[0] || V[1] || V[2] || V[3] || V[4] || V[5])
      addCoriolisMatrix(I, V, c->mom + 6 * b, c->cor + 36 * b);
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (p <= 0) continue;
    mju_addTo6(c->frc + 6 * p, c->frc + 6 * b);
    mju_addTo(c->inert + 10 * p, c->inert + 10 * b, 10);
    mju_addTo(c->cor + 36 * p, c->cor + 36 * b, 36);
    mju_addTo6(c->mom + 6 * p, c->mom + 6 * b);
  }
}

// column k's vectors Q, U (derivative.h): with V_p, A_p the twists before the first moved dof
// (q) or W_k after k's group (v),  q: U = -S x V_p, Q = -S x A_p - U x V_p;
// v: U = cdof_k, Q = cdofdot_k (none for a free translation) - cdof_k x W_k
void mjd_columnMotion(const mjModel* m, const mjData* d, int k, int pos, const mjtNum* v,
                      const mjtNum* cvel, const mjtNum* cdofdot, const mjtNum* a,
                      const mjtNum* cacc, mjtNum Q[6], mjtNum U[6]) {
  int bk = m->dof_bodyid[k], p = m->body_parentid[bk], jnt = m->dof_jntid[k];
  int end = pos ? mjd_firstMoved(m, k) : groupEnd(m, k) + 1;
  const mjtNum* S = d->cdof + 6 * k;
  mjtNum Vp[6], Ap[6], t[6];
  mju_copy6(Vp, cvel + 6 * p);
  mju_copy6(Ap, cacc + 6 * p);
  for (int j = m->body_dofadr[bk]; j < end; j++) {
    mju_addToScl6(Vp, d->cdof + 6 * j, v[j]);
    if (pos) mju_addToScl6(Ap, cdofdot + 6 * j, v[j]);
    if (pos && a) mju_addToScl6(Ap, d->cdof + 6 * j, a[j]);
  }
  if (pos) {
    mju_crossMotion(t, S, Vp);
    mju_scl(U, t, -1, 6);
    mju_crossMotion(Q, Ap, S);
    mju_crossMotion(t, U, Vp);
    mju_subFrom(Q, t, 6);
  } else {
    mju_crossMotion(t, S, Vp);
    if (m->jnt_type[jnt] == mjJNT_FREE && k < m->jnt_dofadr[jnt] + 3) mju_scl(Q, t, -1, 6);
    else mju_sub(Q, cdofdot + 6 * k, t, 6);
    mju_copy6(U, S);
  }
}

// dF = S x* F_X (S not NULL: a q column) + Ic_X Q + K_X U: the slope of the net forces summed
// over body X's subtree, all of which moves with the column (derivative.h)
void mjd_subtreeForceSlope(const mjdComposite* c, int X, const mjtNum* S, const mjtNum Q[6],
                           const mjtNum U[6], mjtNum dF[6]) {
  mjtNum t[6];
  mju_mulInertVec(dF, c->inert + 10 * X, Q);
  if (S) {
    mju_crossForce(t, S, c->frc + 6 * X);
    mju_addTo6(dF, t);
  }
  for (int i = 0; i < 6; i++) mju_addToScl6(dF, c->cor + 36 * X + 6 * i, U[i]);
}

// Spatial quantities are held about a fixed point (the current subtree com, not moving with
// the perturbation): the projections cdof' cfrc do not depend on the point, and in a fixed
// frame a perturbation of dof k by e moves everything after it rigidly by the motion
// S = cdof_k:  d cdof_j = S x cdof_j,  d(I w) = S x* (I w) - I (S x w).  With V_p, A_p the
// twists before the first moved dof (mjd_firstMoved), each body b of k's subtree has
//   dV_b = S x (V_b - V_p),  dA_b = S x (A_b - A_p) - (S x V_p) x (V_b - V_p)
// (the Jacobi identity turns the sum of the moved cdof_dot's slopes into these), and its net
// force F_b = I_b A_b + V_b x* (I_b V_b) the slope
//   dF_b = S x* F_b + I_b Q + K_b U,  U = -S x V_p,  Q = -S x A_p - U x V_p,
//   K_b U = I_b (U x V_b) + U x* (I_b V_b) + V_b x* (I_b U)   (addCoriolisMatrix).
// Along v_k (W_k the velocity after k's group, groupEnd) the bodies of the subtree have
//   dV_b = cdof_k,  dA_b = Q + cdof_k x V_b,  Q = cdofdot_k - cdof_k x W_k,
//   dF_b = I_b Q + K_b U,  U = cdof_k
// (mjd_columnMotion).  Both are linear in the per-column Q, U with per-body matrices, so the
// subtree sums dF_X use the subtree sums Ic_X (composite inertia), K_X, F_X
// (mjd_rneComposites), and d rne_i = d cdof_i' F_X + cdof_i' dF_X for a dof i of body X is,
// with a_i = Ic_X cdof_i and b_i = K_X' cdof_i,
//   a_i' Q + b_i' U  (q: a moved i, whose d cdof_i' F_X = -cdof_i' (S x* F_X) cancels S x* F_X;
//                     v: every i of the subtree)
// and cdof_i' dF_X with X = k's body for the dofs above (mjd_subtreeForceSlope: ancestors,
// k's body's dofs before the first moved).  O(nv * subtree) 12-term dots for all columns.
void mjd_rneDerivative(const mjModel* m, mjData* d, const mjdComposite* c, const mjtNum* v,
                       const mjtNum* cvel, const mjtNum* cdofdot, const mjtNum* a, mjtNum scl,
                       mjtNum* resq, mjtNum* resv) {
  int nv = m->nv, nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* ab = mj_stackAlloc(d, 12 * (size_t)nv);
  int* moved = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);

  // a_i = Ic_X cdof_i, b_i = K_X' cdof_i of each dof i of body X
  for (int i = 0; i < nv; i++) {
    int X = m->dof_bodyid[i];
    const mjtNum *cd = d->cdof + 6 * i, *K = c->cor + 36 * X;
    mju_mulInertVec(ab + 12 * i, c->inert + 10 * X, cd);
    for (int r = 0; r < 6; r++) ab[12 * i + 6 + r] = mju_dot6(K + 6 * r, cd);
  }

  // one column per dof k and direction (q: pos, v)
  for (int kk = 0; kk < 2 * nv; kk++) {
    int pos = kk < nv, k = pos ? kk : kk - nv;
    if (!(pos ? resq : resv)) continue;
    int bk = m->dof_bodyid[k], first = mjd_firstMoved(m, k), adr = m->body_dofadr[bk];
    mjtNum* col = (pos ? resq : resv) + (size_t)k * nv;
    mjtNum Q[6], U[6], dF[6];
    mjd_columnMotion(m, d, k, pos, v, cvel, cdofdot, a, c->cacc, Q, U);
    mjd_subtreeForceSlope(c, bk, pos ? d->cdof + 6 * k : NULL, Q, U, dF);

    // the subtree's dofs (k's body's from the first moved on, for q), then the unmoved ones
    for (int b = bk; b < nbody; b++) {
      int pb = m->body_parentid[b];
      moved[b] = b == bk || (pb >= bk && moved[pb]);
      if (!moved[b]) continue;
      int j0 = b == bk && pos ? first : m->body_dofadr[b];
      for (int i = j0; i < m->body_dofadr[b] + m->body_dofnum[b]; i++)
        col[i] += scl * (mju_dot6(ab + 12 * i, Q) + mju_dot6(ab + 12 * i + 6, U));
    }
    for (int i = pos && first > adr ? first - 1 : m->dof_parentid[adr]; i >= 0;
         i = m->dof_parentid[i])
      col[i] += scl * mju_dot6(d->cdof + 6 * i, dF);
  }
  mj_freeStack(d, mark);
}

// cvel and cdofdot (mj_comVel's outputs) at the velocity vel instead of qvel: mj_comVel run
// with d's qvel, cvel and cdof_dot pointed at these arrays, then restored (derivative.h)
void mjd_comVelAt(const mjModel* m, mjData* d, mjtNum* vel, mjtNum* cvel, mjtNum* cdofdot) {
  mjtNum *qvel = d->qvel, *cv = d->cvel, *cd = d->cdof_dot;
  d->qvel = vel, d->cvel = cvel, d->cdof_dot = cdofdot;
  mj_comVel(m, d);
  d->qvel = qvel, d->cvel = cv, d->cdof_dot = cd;
}

// resq, resv (either NULL) += scl d rne/dq, d rne/dv at (v, cvel, cdofdot, a) (gravity when
// `gravity`), the composites on d's stack, or in *keep (its arrays the caller's) for reuse
static void rneAt(const mjModel* m, mjData* d, const mjtNum* v, const mjtNum* cvel,
                  const mjtNum* cdofdot, const mjtNum* a, int gravity, mjtNum scl, mjtNum* resq,
                  mjtNum* resv, mjdComposite* keep) {
  size_t mark = mj_markStack(d);
  mjdComposite c;
  if (!keep) mjd_compositeAlloc(m, d, &c);
  mjdComposite* cp = keep ? keep : &c;
  mjd_rneComposites(m, d, v, cvel, cdofdot, a, gravity, cp);
  mjd_rneDerivative(m, d, cp, v, cvel, cdofdot, a, scl, resq, resv);
  mj_freeStack(d, mark);
}

// resq (nv x nv, column k +=) scl dM/dq_k x: the RNE's position slope at rest (no velocity,
// no gravity) with the acceleration x (derivative.h)
void mjd_massSlope(const mjModel* m, mjData* d, const mjtNum* x, mjtNum scl, mjtNum* resq) {
  size_t mark = mj_markStack(d);
  mjtNum* rest = mj_stackAlloc(d, 6 * (size_t)(m->nbody + m->nv));
  mju_zero(rest, 6 * (m->nbody + m->nv));
  rneAt(m, d, rest, rest, rest, x, 0, scl, resq, NULL, NULL);
  mj_freeStack(d, mark);
}

// ---- passive and actuator forces ---------------------------------------------------------------

// G(i, j) += s u_i u_j over the non-zeros of a compressed row (u, ind, n) and the rows i
// with free[i]; G column-major nv
static void addRank1(mjtNum* G, int nv, mjtNum s, const mjtNum* u, const int* ind, int n,
                     const int* free) {
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n && free[ind[a]]; b++)
      G[(size_t)ind[b] * nv + ind[a]] += s * u[a] * u[b];
}

// S = d(c(r) dif)/d dif = c I + (s - c) u u' of a spring -c(r) dif (r = |dif|, u = dif / r,
// c = mju_polyCoef, s = mju_polySlope = c + r c'(r)); c I where r = 0
static void springMat(mjtNum k, const mjtNum p[mjNPOLY], const mjtNum dif[3], mjtNum S[9]) {
  mjtNum r = mju_norm3(dif), c = mju_polyCoef(k, p, r, 0);
  mjtNum e = r > 0 ? (mju_polySlope(k, p, r, 0) - c) / (r * r) : 0;
  for (int i = 0; i < 9; i++) S[i] = (i % 4 == 0 ? c : 0) + e * dif[i / 3] * dif[i % 3];
}

// Gq, Gv += d(spring, damper forces)/dq, dv (slopes s = mju_polySlope of the coefficients):
// joint springs -c(x) x with derivative -s(x), free translation -c(r) dif with -springMat,
// quaternion springs -c(r) subQuat(q, q0) with -springMat Jr^-1(subQuat), dof dampers -s(v),
// tendons -s(x) J'J outside the dead band (everywhere when it is empty: lo = hi) and -s(v) J'J
// (spatial tendons' turning J: spatialTendonDeriv)
static void passiveDeriv(const mjModel* m, mjData* d, mjtNum* Gq, mjtNum* Gv) {
  int nv = m->nv;
  int spring = !(m->opt.disableflags & mjDSBL_SPRING);
  int damper = !(m->opt.disableflags & mjDSBL_DAMPER);

  // joints
  for (int j = 0; j < m->njnt && spring; j++) {
    mjtNum k = m->jnt_stiffness[j], S[9];
    const mjtNum* p = m->jnt_stiffnesspoly + mjNPOLY * j;
    int adr = m->jnt_dofadr[j], qadr = m->jnt_qposadr[j], type = m->jnt_type[j];
    if (!k && mju_isZero(p, mjNPOLY)) continue;
    if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
      mjtNum x = d->qpos[qadr] - m->qpos_spring[qadr];
      Gq[(size_t)adr * nv + adr] -= mju_polySlope(k, p, x, 0);
      continue;
    }
    if (type == mjJNT_FREE) {
      mjtNum dif[3];
      mju_sub3(dif, d->qpos + qadr, m->qpos_spring + qadr);
      springMat(k, p, dif, S);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) Gq[(size_t)(adr + c) * nv + adr + r] -= S[3 * r + c];
      adr += 3, qadr += 3;
    }
    mjtNum quat[4], dif[3], J[9], SJ[9];
    mju_copy4(quat, d->qpos + qadr);
    mju_normalize4(quat);
    mju_subQuat(dif, quat, m->qpos_spring + qadr);
    mjd_rightJacobian(dif, J, 1);
    springMat(k, p, dif, S);
    mju_mulMatMat(SJ, S, J, 3, 3, 3);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) Gq[(size_t)(adr + c) * nv + adr + r] -= SJ[3 * r + c];
  }
  for (int i = 0; i < nv && damper; i++) Gv[(size_t)i * nv + i] -= mj_dofDampingSlope(m, d, i);

  // tendons: -s J'J by length and by velocity
  for (int t = 0; t < m->ntendon; t++) {
    const mjtNum* J = d->ten_J + (size_t)t * nv;
    mjtNum f[2], sl[2];
    mj_tendonSpringDamper(m, d, t, f, sl);
    for (int r = 0; r < nv && (sl[0] || sl[1]); r++)
      for (int c = 0; c < nv && J[r]; c++) {
        Gq[(size_t)c * nv + r] -= sl[0] * J[r] * J[c];
        Gv[(size_t)c * nv + r] -= sl[1] * J[r] * J[c];
      }
  }
}

// res = S_lin + S_rot x r: the velocity at offset r (from the point S is held about) of S
static void twistAt(mjtNum res[3], const mjtNum S[6], const mjtNum r[3]) {
  mju_cross(res, S, r);
  mju_addTo3(res, S + 3);
}

// col (nv, +=) the change of the generalized forces cdof_j'W, over the dofs j of the chain
// ending at dof `last`, of a wrench W = (Tw + r x F, F) (torque Tw and force F at r from the
// tree's com) whose law changes them by dTw, dF; along q_i (moves: dof i moves the body by
// S = cdof_i, s its rotation) the torque and force also turn and the point moves by dp = S(r):
//   dW = (dTw + s x Tw + dp x F + r x dF', dF'),  dF' = dF + s x F,
//   dqfrc_j = cdof_j'dW - [j moved by i] cdof_j'(S x* W)
static void wrenchColumn(const mjModel* m, const mjData* d, int last, int i, int moves,
                         const mjtNum r[3], const mjtNum Tw[3], const mjtNum F[3],
                         const mjtNum dTw[3], const mjtNum dF[3], mjtNum* col) {
  const mjtNum* S = d->cdof + 6 * i;
  mjtNum dW[6], W[6], SW[6] = {0}, t[3];
  int first = mjd_firstMoved(m, i);
  mju_copy3(dW, dTw);
  mju_copy3(dW + 3, dF);
  if (moves) {
    mjtNum dp[3];
    twistAt(dp, S, r);
    mju_cross(t, S, Tw);
    mju_addTo3(dW, t);
    mju_cross(t, S, F);
    mju_addTo3(dW + 3, t);
    mju_cross(t, dp, F);
    mju_addTo3(dW, t);
    mju_cross(W, r, F);
    mju_addTo3(W, Tw);
    mju_copy3(W + 3, F);
    mju_crossForce(SW, S, W);
  }
  mju_cross(t, r, dW + 3);
  mju_addTo3(dW, t);
  for (int j = last; j >= 0; j = m->dof_parentid[j])
    col[j] += mju_dot(d->cdof + 6 * j, dW, 6) -
              (moves && j >= first ? mju_dot(d->cdof + 6 * j, SW, 6) : 0);
}

// Gq, Gv += d qfrc_fluid/dq, dv of one fluid object of body b (its inertia box at its com, or
// a geom's ellipsoid). With p the object's point (r = p - o from its tree's com o), R its frame
// and T the body's twist (cvel, w its rotation), the local velocity l = (R'w, R'(v(p) - wind))
// gives the local force lf(l) with derivative B, the world torque and force Tw = R lf_rot,
// F = R lf_lin on p (wrenchColumn), changing by R B dl:
//   along v_i:  dl = (R'w_i, R'v_i(p)),  (w_i, v_i) = cdof_i
//   along q_i (S = cdof_i, s its rotation):  the point moves by dp = S(p), the twist by dT =
//   S x (T - pre_i) (pre_i the twist before the first dof i moves) and the frame turns, so
//   dl = (R'(dw - s x w), R'(dv(p) + w x dp - s x (v(p) - wind)))
static void fluidObjectDeriv(const mjModel* m, mjData* d, int b, const mjtNum p[3],
                             const mjtNum R[9], const mjtNum lf[6], const mjtNum B[36],
                             mjtNum* Gq, mjtNum* Gv) {
  int nv = m->nv, last = mj_bodyLastDof(m, b);
  const mjtNum* T = d->cvel + 6 * b;
  mjtNum r[3], vrel[3], Tw[3], F[3], t[3];
  mju_sub3(r, p, d->subtree_com + 3 * m->body_rootid[b]);
  twistAt(vrel, T, r);
  mju_subFrom(vrel, m->opt.wind, 3);
  mju_mulMatVec3(Tw, R, lf);
  mju_mulMatVec3(F, R, lf + 3);

  // each direction: the v columns, then the q columns, of the dofs of b's chain
  for (int q = 0; q < 2; q++) {
    for (int i = last; i >= 0; i = m->dof_parentid[i]) {
      const mjtNum* S = d->cdof + 6 * i;
      mjtNum dw[3], dv[3], dl[6], bdl[6], dTw[3], dF[3];
      if (!q) {
        mju_copy3(dw, S);
        twistAt(dv, S, r);
      } else {
        mjtNum pre[6], dT[6], dp[3];
        int first = mjd_firstMoved(m, i), bi = m->dof_bodyid[i];
        mju_copy(pre, d->cvel + 6 * m->body_parentid[bi], 6);
        for (int j = m->body_dofadr[bi]; j < first; j++)
          mju_addToScl(pre, d->cdof + 6 * j, d->qvel[j], 6);
        mju_sub(pre, T, pre, 6);
        mju_crossMotion(dT, S, pre);
        twistAt(dp, S, r);
        mju_copy3(dw, dT);
        twistAt(dv, dT, r);
        mju_cross(t, T, dp);
        mju_addTo3(dv, t);
        mju_cross(t, S, T);
        mju_subFrom(dw, t, 3);
        mju_cross(t, S, vrel);
        mju_subFrom(dv, t, 3);
      }

      // the local force's change B dl, in the world
      mju_mulMatTVec3(dl, R, dw);
      mju_mulMatTVec3(dl + 3, R, dv);
      mju_mulMatVec(bdl, B, dl, 6, 6);
      mju_mulMatVec3(dTw, R, bdl);
      mju_mulMatVec3(dF, R, bdl + 3);
      wrenchColumn(m, d, last, i, q, r, Tw, F, dTw, dF, (q ? Gq : Gv) + (size_t)i * nv);
    }
  }
}

// Gq, Gv += d qfrc_fluid/dq, dv, object by object (mj_fluidNext: a body's inertia box or its
// fluid geoms' ellipsoids)
static void fluidDeriv(const mjModel* m, mjData* d, mjtNum* Gq, mjtNum* Gv) {
  for (int b = 1; b < m->nbody; b++) {
    int type;
    if (mj_bodyLastDof(m, b) < 0) continue;
    for (int o = mj_fluidNext(m, b, -1, &type); o >= 0; o = mj_fluidNext(m, b, o, &type)) {
      const mjtNum *pos, *mat;
      mjtNum lf[6], B[36];
      mj_fluidObjectForce(m, d, type, o, lf, B);
      mj_objectFrame(m, d, type, o, &pos, &mat);
      fluidObjectDeriv(m, d, b, pos, mat, lf, B, Gq, Gv);
    }
  }
}

// Gq += the moment's change times the force of site-transmission actuator i (no reference
// site): the force f R gear_lin and torque f R gear_rot at the site, fixed to its body
// (wrenchColumn), on the dofs free of an actfrcrange clamp; col: nv of scratch
static void siteDeriv(const mjModel* m, const mjData* d, int i, const int* free, mjtNum* col,
                      mjtNum* Gq) {
  int s = m->actuator_trnid[2 * i], b = m->site_bodyid[s], last = mj_bodyLastDof(m, b);
  const mjtNum *gear = m->actuator_gear + 6 * i, *R = d->site_xmat + 9 * s;
  mjtNum r[3], F[3], Tw[3], zero[3] = {0, 0, 0}, f = d->actuator_force[i];
  if (last < 0 || !f) return;
  mju_sub3(r, d->site_xpos + 3 * s, d->subtree_com + 3 * m->body_rootid[b]);
  mju_mulMatVec3(F, R, gear);
  mju_mulMatVec3(Tw, R, gear + 3);
  mju_scl3(F, F, f);
  mju_scl3(Tw, Tw, f);
  for (int k = last; k >= 0; k = m->dof_parentid[k]) {
    mju_zero(col, m->nv);
    wrenchColumn(m, d, last, k, 1, r, Tw, F, zero, zero, col);
    for (int j = last; j >= 0; j = m->dof_parentid[j])
      if (free[j]) Gq[(size_t)k * m->nv + j] += col[j];
  }
}

// the step's coefficient of act_dot in act' = act + c act_dot: h, or tau (1 - exp(-h/tau))
// for filterexact (as mj_nextActivation)
static mjtNum actCoef(const mjModel* m, int i) {
  mjtNum h = m->opt.timestep, tau = fmax(mjMINVAL, m->actuator_dynprm[10 * i]);
  return m->actuator_dyntype[i] == mjDYN_FILTEREXACT ? tau * (1 - exp(-h / tau)) : h;
}

// d act_dot/d act and d act_dot/d ctrl_i of actuator i's (last) activation: ctrl
// (integrator), (ctrl - act)/tau (filters) or the muscle's, the control clamped; 0 without
// actuation
static void actDotSlope(const mjModel* m, const mjData* d, int i, mjtNum* dact,
                        mjtNum* dctrl) {
  int dyn = m->actuator_dyntype[i], adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
  mjtNum tau = fmax(mjMINVAL, m->actuator_dynprm[10 * i]), slope;
  mjtNum c = mj_actuatorCtrl(m, d, i, &slope);
  *dact = *dctrl = 0;
  if (m->opt.disableflags & mjDSBL_ACTUATION) return;
  if (dyn == mjDYN_INTEGRATOR) {
    *dctrl = slope;
  } else if (dyn == mjDYN_FILTER || dyn == mjDYN_FILTEREXACT) {
    *dact = -1 / tau;
    *dctrl = slope / tau;
  } else if (dyn == mjDYN_MUSCLE) {
    mj_muscleDynamicsSlopes(c, d->act[adr], m->actuator_dynprm + 10 * i, dact, dctrl);
    *dctrl *= slope;
  }
}

// 1 when actuator i's next activation act + c sdot (sdot: its act_dot, or RK4's weighted
// sum) is clamped by actrange; -1 when it stays as it is because actuation is disabled
static int actClamped(const mjModel* m, int i, mjtNum act, mjtNum sdot) {
  const mjtNum* r = m->actuator_actrange + 2 * i;
  mjtNum next = act + actCoef(m, i) * sdot;
  if (m->opt.disableflags & mjDSBL_ACTUATION) return -1;
  return m->actuator_actlimited[i] && (next < r[0] || next > r[1]);
}

// y += s R((u v' + v u')/2) x: a rank-one (v = u) or symmetric rank-two term of the
// integrator's D as its matrix holds it, on qM's sparsity (pairs of a dof and an ancestor)
// and, with `simple`, without the off-diagonal entries of simple dofs' rows (dropped by
// implicitfast's factor)
static void addRank2W(const mjModel* m, mjtNum* y, mjtNum s, const mjtNum* u, const mjtNum* v,
                      const mjtNum* x, int simple) {
  for (int i = 0; i < m->nv; i++) {
    if (!u[i] && !v[i]) continue;
    y[i] += s * u[i] * v[i] * x[i];
    if (simple && m->dof_simplenum[i]) continue;
    for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j]) {
      mjtNum e = 0.5 * (u[i] * v[j] + v[i] * u[j]);
      y[i] += s * e * x[j];
      y[j] += s * e * x[i];
    }
  }
}

// the slopes of actuator i's force (derivative.h): force = gain input + bias with affine or
// muscle gain and bias in (length, velocity); input = clamped ctrl, the activation, or
// (actearly) the next activation; none where forcerange clamps the force
int mjd_actuatorSlopes(const mjModel* m, const mjData* d, int i, mjtNum* gain, mjtNum s[4],
                       mjtNum dk[3]) {
  const mjtNum *gp = m->actuator_gainprm + 10 * i, *bp = m->actuator_biasprm + 10 * i;
  const mjtNum* fr = m->actuator_forcerange + 2 * i;
  int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
  int nodyn = m->actuator_dyntype[i] == mjDYN_NONE || m->actuator_actnum[i] <= 0;
  int affine = m->actuator_gaintype[i] == mjGAIN_AFFINE;
  int baffine = m->actuator_biastype[i] == mjBIAS_AFFINE;
  mjtNum f = d->actuator_force[i];
  *gain = s[0] = s[1] = s[2] = s[3] = 0;
  if ((m->opt.disableflags & mjDSBL_ACTUATION) || mj_actuatorDisabled(m, i)) return 0;
  if (m->actuator_forcelimited[i] && (f <= fr[0] || f >= fr[1])) return 0;

  // a DC motor without a current state: force = K/R V(ctrl, length, velocity) - K^2/R
  // velocity, k constant
  if (m->actuator_dyntype[i] == mjDYN_DCMOTOR) {
    mjtNum dv[3], R = gp[0], K = gp[1];
    mj_dcmotorVoltage(m, d, i, mj_actuatorCtrl(m, d, i, s + 3), dv);
    *gain = K / R;
    s[3] *= dv[0];
    s[0] = *gain * dv[1];
    s[1] = *gain * dv[2] - K * K / R;
    if (dk) dk[0] = dk[1] = dk[2] = 0;
    return 1;
  }

  // the input and its slopes by ctrl_i and by the activation
  mjtNum in = mj_actuatorInput(m, d, i);
  if (nodyn) mj_actuatorCtrl(m, d, i, s + 3);
  else if (!m->actuator_actearly[i]) s[2] = 1;
  else if (!actClamped(m, i, d->act[adr], d->act_dot[adr])) {
    actDotSlope(m, d, i, s + 2, s + 3);
    s[2] = 1 + actCoef(m, i) * s[2];
    s[3] *= actCoef(m, i);
  }

  // force slopes by length and velocity, the input's factor; k's slopes from the same pass
  mjtNum glen, gvel, blen, vlen, vvel;
  mjtNum muscle = mj_muscleSlopes(m, d, i, &glen, &gvel, &blen, dk ? &vlen : NULL,
                                  dk ? &vvel : NULL);
  if (dk) mj_forceVelFrom(m, d, i, gvel, vlen, vvel, dk);
  *gain = m->actuator_gaintype[i] == mjGAIN_MUSCLE
              ? muscle
              : gp[0] + (affine ? gp[1] * d->actuator_length[i] +
                                      gp[2] * d->actuator_velocity[i] : 0);
  s[0] = (affine ? gp[1] * in : 0) + (baffine ? bp[1] : 0) + glen * in + blen;
  s[1] = (affine ? gp[2] * in : 0) + (baffine ? bp[2] : 0) + gvel * in;
  return 1;
}

// the dofs whose actuator force is not clamped by their joint's actfrcrange (nv ints on d's
// stack)
static int* freeDofs(const mjModel* m, mjData* d) {
  int* free = (int*)mj_stackAlloc(d, (size_t)m->nv / 2 + 1);
  for (int j = 0; j < m->njnt; j++) {
    int adr = m->jnt_dofadr[j];
    int n = m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : 1;
    const mjtNum* r = m->jnt_actfrcrange + 2 * j;
    for (int k = adr; k < adr + n; k++) {
      mjtNum q = d->qfrc_actuator[k];
      free[k] = !m->jnt_actfrclimited[j] || (q > r[0] && q < r[1]);
    }
  }
  return free;
}

// Gq += d(J_b' W_b)/dq of the wrenches held in the world at the bodies' coms: xfrc_applied
// (force, torque) on every dof of the chain, and the gravity compensation F = -gravcomp m g
// on the dofs that take it (the passive force's, or an actgravcomp joint's unclamped
// actuator force while actuation is on).  Held in the world, they do not turn with the body:
// wrenchColumn with dF = -s x F, dTw = -s x Tw (s: the column's rotation), so only the point
// of application moves
static void appliedDeriv(const mjModel* m, mjData* d, mjtNum* Gq) {
  int nv = m->nv, act = m->nu && !(m->opt.disableflags & mjDSBL_ACTUATION);
  int gravity = !(m->opt.disableflags & mjDSBL_GRAVITY) && mju_norm3(m->opt.gravity) != 0 &&
                mj_passiveOn(m);  // the compensation is a passive force
  size_t mark = mj_markStack(d);
  int* free = freeDofs(m, d);
  mjtNum* col = mj_stackAlloc(d, (size_t)nv);
  for (int b = 1; b < m->nbody; b++) {
    int last = mj_bodyLastDof(m, b);
    if (last < 0) continue;
    mjtNum r[3], W[2][6] = {{0}};  // the applied and the compensating (force, torque)
    mju_copy(W[0], d->xfrc_applied + 6 * b, 6);
    if (gravity) mju_scl3(W[1], m->opt.gravity, -m->body_gravcomp[b] * m->body_mass[b]);
    mju_sub3(r, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
    for (int w = 0; w < 2; w++) {
      if (mju_norm(W[w], 6) == 0) continue;
      for (int k = last; k >= 0; k = m->dof_parentid[k]) {
        mjtNum dF[3], dT[3];
        mju_cross(dF, d->cdof + 6 * k, W[w]);
        mju_cross(dT, d->cdof + 6 * k, W[w] + 3);
        mju_scl3(dF, dF, -1);
        mju_scl3(dT, dT, -1);
        mju_zero(col, nv);
        wrenchColumn(m, d, last, k, 1, r, W[w] + 3, W[w], dT, dF, col);
        for (int j = last; j >= 0; j = m->dof_parentid[j])
          if (!w || !m->jnt_actgravcomp[m->dof_jntid[j]] || (act && free[j]))
            Gq[(size_t)k * nv + j] += col[j];
      }
    }
  }
  mj_freeStack(d, mark);
}

// G += the actuator part of df/d(q, v, act, u) - d(W a')/d(act, u) (mjd_actuatorSlopes:
// dlength/dq = moment, constant for joint and fixed-tendon transmissions; a site
// transmission's moment turning with its body, siteDeriv), nothing on the dofs of a joint
// whose actfrcrange clamps qfrc_actuator (its rows are constant).  The implicit integrators'
// D holds moment' k moment, k = gainprm[2] input + biasprm[2] with the raw ctrl as input
// (mj_actuatorForceVel), so d(W a')/du = -h dk/du R(moment moment') a'
static void actuatorDeriv(const mjModel* m, mjData* d, int sys, const mjtNum* acc,
                          mjtNum* Gq, mjtNum* Gv, mjtNum* Gact, mjtNum* Gu) {
  int nv = m->nv;
  mjtNum h = m->opt.timestep;
  size_t mark = mj_markStack(d);
  mjtNum* u = mj_stackAlloc(d, (size_t)nv);
  mjtNum* y = mj_stackAlloc(d, (size_t)nv);
  int* free = freeDofs(m, d);
  for (int i = 0; i < m->nu; i++) {
    const mjtNum* mom = d->actuator_moment + d->moment_rowadr[i];
    const int* ind = d->moment_colind + d->moment_rowadr[i];
    int nnz = d->moment_rownnz[i], adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    int nodyn = m->actuator_dyntype[i] == mjDYN_NONE || m->actuator_actnum[i] <= 0;
    if (m->actuator_trntype[i] == mjTRN_SITE) siteDeriv(m, d, i, free, y, Gq);
    mjtNum gain, s[4], dk[3];
    int implicit = sys == SYS_IMPLICIT || sys == SYS_FAST;
    if (!mjd_actuatorSlopes(m, d, i, &gain, s, implicit ? dk : NULL)) continue;
    addRank1(Gq, nv, s[0], mom, ind, nnz, free);
    addRank1(Gv, nv, s[1], mom, ind, nnz, free);
    for (int k = 0; k < nnz; k++) {
      if (!free[ind[k]]) continue;
      if (!nodyn) Gact[(size_t)adr * nv + ind[k]] += gain * s[2] * mom[k];
      Gu[(size_t)i * nv + ind[k]] += gain * s[3] * mom[k];
    }

    // the implicit integrators' matrix holds k = d force/d velocity (mj_actuatorForceVel):
    // gainprm[2] input + biasprm[2], or a muscle's gain slope gvel(length, velocity) times
    // its input; k's slopes by the input (kin), length and velocity move W a'
    if (!implicit) continue;
    mjtNum kin = dk[0], klen = dk[1], kvel = dk[2];
    if (!kin && !klen && !kvel) continue;
    mj_momentRow(m, d, i, u);
    mju_zero(y, nv);
    addRank2W(m, y, h, u, u, acc, sys == SYS_FAST);
    mju_addToScl(Gu + (size_t)i * nv, y, kin * (nodyn ? 1 : s[3]), nv);
    if (!nodyn) mju_addToScl(Gact + (size_t)adr * nv, y, kin * s[2], nv);
    for (int k = 0; k < nnz && (klen || kvel); k++) {
      mju_addToScl(Gq + (size_t)ind[k] * nv, y, klen * mom[k], nv);
      mju_addToScl(Gv + (size_t)ind[k] * nv, y, kvel * mom[k], nv);
    }

    // a spatial tendon's velocity turns with q: d velocity/dq = gear dJ/dq v
    int t = m->actuator_trnid[2 * i];
    if (!kvel || m->actuator_trntype[i] != mjTRN_TENDON || mjd_tendonFixed(m, t)) continue;
    mjd_tendonSlopes(m, d, t, u, NULL);
    for (int k = 0; k < nv; k++)
      mju_addToScl(Gq + (size_t)k * nv, y, kvel * m->actuator_gear[6 * i] * u[k], nv);
  }
  mj_freeStack(d, mark);
}

// Gq += what the site-only spatial tendons' turning adds to the forces they carry
// (mjd_tendonTurn): the passive force f = spring + damper (mj_tendonSpringDamper; fv its
// damper's slope by the velocity) and each tendon actuator's gear g times its force (fv += g^2
// d force/d velocity); their J'(df/dlen, df/dvel)J parts are passiveDeriv's and
// actuatorDeriv's.  Under the implicit integrators W = M - h D holds fv R(J J') (the damper
// and the actuators' velocity slopes), which turns too: column k gains
// h fv R(dJ_k J' + J dJ_k') a'
static void spatialTendonDeriv(const mjModel* m, mjData* d, int sys, const mjtNum* acc,
                               mjtNum* Gq) {
  int nt = m->ntendon, nv = m->nv, any = 0;
  for (int t = 0; t < nt; t++) any |= !mjd_tendonFixed(m, t);
  if (!any) return;
  size_t mark = mj_markStack(d);
  mjtNum* f = mj_stackAlloc(d, 2 * (size_t)nt);
  mjtNum* fv = f + nt;
  mju_zero(f, 2 * nt);
  for (int t = 0; t < nt; t++) {
    mjtNum ft[2], sl[2];
    mj_tendonSpringDamper(m, d, t, ft, sl);
    f[t] = ft[0] + ft[1];
    fv[t] = -sl[1];
  }
  for (int i = 0; i < m->nu; i++) {
    mjtNum gain, sl[4], g = m->actuator_gear[6 * i];
    if (m->actuator_trntype[i] != mjTRN_TENDON) continue;
    int t = m->actuator_trnid[2 * i];
    f[t] += g * d->actuator_force[i];
    if (mjd_actuatorSlopes(m, d, i, &gain, sl, NULL)) fv[t] += g * g * sl[1];
  }
  mjd_tendonTurn(m, d, f, fv, Gq);

  // the implicit integrators' D: dJ_k (column k of dJ) against J
  mjtNum* dJ = mj_stackAlloc(d, (size_t)nv * nv);
  for (int t = 0; t < nt && (sys == SYS_IMPLICIT || sys == SYS_FAST); t++) {
    if (!fv[t] || mjd_tendonFixed(m, t)) continue;
    mjd_tendonSlopes(m, d, t, NULL, dJ);
    for (int k = 0; k < nv; k++)
      addRank2W(m, Gq + (size_t)k * nv, 2 * m->opt.timestep * fv[t], dJ + (size_t)k * nv,
                d->ten_J + (size_t)t * nv, acc, sys == SYS_FAST);
  }
  mj_freeStack(d, mark);
}

// ---- the integrator's matrix W -----------------------------------------------------------------

// the factor of W: L'DL on qM's layout (ld, diaginv), or the tree LU of dense W (lu)
typedef struct {
  mjtNum* ld;       // L'DL factor (nM), NULL: qM's own factor
  mjtNum* diaginv;  // 1/D (nv)
  mjtNum* lu;       // dense nv x nv LU (implicit), NULL otherwise
} Factor;

// LU of W in place without pivoting, eliminating from the last dof over ancestor chains
// only (W has qM's pattern, so the elimination makes no fill):
//   W(i,k) /= W(k,k), W(i,j) -= W(i,k) W(k,j) for i, j ancestors of k
static void factorTreeLU(const mjModel* m, mjtNum* W) {
  int nv = m->nv;
  const int* parent = m->dof_parentid;
  for (int k = nv - 1; k >= 0; k--) {
    mjtNum piv = W[(size_t)k * nv + k];
    if (fabs(piv) < mjMINVAL) piv = mjMINVAL;
    for (int i = parent[k]; i >= 0; i = parent[i]) {
      mjtNum l = W[(size_t)i * nv + k] /= piv;
      if (!l) continue;
      for (int j = parent[k]; j >= 0; j = parent[j])
        W[(size_t)i * nv + j] -= l * W[(size_t)k * nv + j];
    }
  }
}

// x = inv(W) x with factorTreeLU's factor: push from the last dof, then solve from the first
static void solveTreeLU(const mjModel* m, const mjtNum* W, mjtNum* x) {
  int nv = m->nv;
  const int* parent = m->dof_parentid;
  for (int k = nv - 1; k >= 0; k--)
    for (int i = parent[k]; i >= 0; i = parent[i]) x[i] -= W[(size_t)i * nv + k] * x[k];
  for (int k = 0; k < nv; k++) {
    const mjtNum* row = W + (size_t)k * nv;
    for (int j = parent[k]; j >= 0; j = parent[j]) x[k] -= row[j] * x[j];
    x[k] /= fabs(row[k]) < mjMINVAL ? mjMINVAL : row[k];
  }
}

// 1 when Euler integrates dof damping implicitly (as mj_Euler decides)
static int eulerDamped(const mjModel* m) {
  return !(m->opt.disableflags & (mjDSBL_EULERDAMP | mjDSBL_DAMPER)) && mj_dofDamped(m);
}

// G += scl (dW/dx) a' for the damper slopes s of W that change with the state (polynomial
// dampers, s' = mju_polyCurve): W holds h s(v_i) on dof i's diagonal (Euler when it damps
// implicitly, implicit, implicitfast) and h s(v_t) R(J J') of tendon t (implicit,
// implicitfast; R as addRank2W), so with w = R(J J') a'
//   dof i:     column v_i, row i += scl h s'(v_i) a'_i
//   tendon t:  column v_k += scl h s'(v_t) J_k w,  column q_k += scl h s'(v_t) (dJ_k . v) w
//              (spatial tendons: v_t = J v turns with q)
static void damperCurve(const mjModel* m, mjData* d, int sys, const mjtNum* acc, mjtNum scl,
                        mjtNum* Gq, mjtNum* Gv) {
  int nv = m->nv, implicit = sys == SYS_IMPLICIT || sys == SYS_FAST;
  mjtNum h = m->opt.timestep;
  if (m->opt.disableflags & mjDSBL_DAMPER || (!implicit && (sys != SYS_EULER ||
                                                           !eulerDamped(m))))
    return;
  mjtNum poly[mjNPOLY];
  for (int i = 0; i < nv; i++) {
    mj_damping(m, mjOBJ_DOF, i, poly);
    Gv[(size_t)i * nv + i] += scl * h * mju_polyCurve(poly, d->qvel[i], 1) * acc[i];
  }
  if (!implicit) return;
  size_t mark = mj_markStack(d);
  mjtNum* w = mj_stackAlloc(d, (size_t)nv);
  mjtNum* dJ = mj_stackAlloc(d, (size_t)nv * nv);
  for (int t = 0; t < m->ntendon; t++) {
    const mjtNum* J = d->ten_J + (size_t)t * nv;
    mj_damping(m, mjOBJ_TENDON, t, poly);
    mjtNum c = scl * h * mju_polyCurve(poly, d->ten_velocity[t], 1);
    if (!c) continue;
    mju_zero(w, nv);
    addRank2W(m, w, 1, J, J, acc, sys == SYS_FAST);
    for (int k = 0; k < nv; k++)
      if (J[k]) mju_addToScl(Gv + (size_t)k * nv, w, c * J[k], nv);
    if (mjd_tendonFixed(m, t)) continue;
    mjd_tendonSlopes(m, d, t, NULL, dJ);
    for (int k = 0; k < nv; k++)
      mju_addToScl(Gq + (size_t)k * nv, w, c * mju_dot(dJ + (size_t)k * nv, d->qvel, nv), nv);
  }
  mj_freeStack(d, mark);
}

// 1 when the model has a standalone free body (mj_standaloneFree), whose block implicitfast
// solves whole, with the RNE term
static int anyStandaloneFree(const mjModel* m) {
  for (int j = 0; j < m->njnt; j++)
    if (mj_standaloneFree(m, j) >= 0) return 1;
  return 0;
}

// factor W of system sys as the engine builds it: qM's factor (qacc, undamped Euler), qM +
// h diag(damping) (Euler), mj_implicitMatrix without the RNE term packed into qM's layout
// (implicitfast; the simple rows' off-diagonals dropped by mj_factorI) or with it (implicit,
// and implicitfast with standalone free bodies, whose blocks are not symmetric: tree LU)
static void factorW(const mjModel* m, mjData* d, int sys, Factor* f) {
  int nv = m->nv;
  f->ld = f->diaginv = f->lu = NULL;
  if (sys == SYS_QACC || (sys == SYS_EULER && !eulerDamped(m))) return;
  if (sys == SYS_IMPLICIT || (sys == SYS_FAST && anyStandaloneFree(m))) {
    f->lu = mj_stackAlloc(d, (size_t)nv * nv);
    mj_implicitMatrix(m, d, f->lu, sys == SYS_IMPLICIT);
    factorTreeLU(m, f->lu);
    return;
  }
  mjtNum* H = mj_stackAlloc(d, (size_t)m->nM);
  f->ld = mj_stackAlloc(d, (size_t)m->nM);
  f->diaginv = mj_stackAlloc(d, (size_t)nv);
  if (sys == SYS_EULER) {
    mju_copy(H, d->qM, m->nM);
    for (int i = 0; i < nv; i++)
      H[m->dof_Madr[i]] += m->opt.timestep * mj_dofDampingSlope(m, d, i);
  } else {
    size_t mark = mj_markStack(d);
    mjtNum* A = mj_stackAlloc(d, (size_t)nv * nv);
    mj_implicitMatrix(m, d, A, 0);
    for (int i = 0; i < nv; i++) {
      mjtNum* row = H + m->dof_Madr[i];
      for (int j = i; j >= 0; j = m->dof_parentid[j]) *row++ = A[(size_t)i * nv + j];
    }
    mj_freeStack(d, mark);
  }
  mj_factorI(m, d, H, f->ld, f->diaginv, 1);
}

// x = inv(W) x for n vectors of nv one after another (f: factorW's, all NULL for M itself);
// several at once by rows (mj_solveLDRows), transposed into d's stack and back
static void solveW(const mjModel* m, mjData* d, const Factor* f, mjtNum* x, int n) {
  int nv = m->nv;
  if (f->lu) {
    for (int v = 0; v < n; v++) solveTreeLU(m, f->lu, x + (size_t)v * nv);
    return;
  }
  const mjtNum* ld = f->ld ? f->ld : d->qLD;
  const mjtNum* diaginv = f->ld ? f->diaginv : d->qLDiagInv;
  if (n == 1) {
    mj_solveLD(m, ld, diaginv, x, x, 1, 1);
    return;
  }
  size_t mark = mj_markStack(d);
  mjtNum* T = mj_stackAlloc(d, (size_t)nv * n);
  mju_transpose(T, x, n, nv);
  mj_solveLDRows(m, ld, diaginv, T, n, 1);
  mju_transpose(x, T, nv, n);
  mj_freeStack(d, mark);
}

// ---- the acceleration's derivative -------------------------------------------------------------

// Gq += -h d/dq [c0(v + a') - c0(v) - c0(a')] and Gv += -h dc0/dv at a' (c0 the RNE's
// velocity terms): the implicit integrators' RNE part of W a', differentiated
static void implicitRNE(const mjModel* m, mjData* d, const mjtNum* acc, mjtNum* Gq,
                        mjtNum* Gv) {
  int nv = m->nv;
  mjtNum h = m->opt.timestep;
  size_t mark = mj_markStack(d);
  mjtNum* w = mj_stackAlloc(d, (size_t)nv);
  mjtNum* cvel = mj_stackAlloc(d, 6 * (size_t)m->nbody);
  mjtNum* cdd = mj_stackAlloc(d, 6 * (size_t)nv);
  mju_add(w, d->qvel, acc, nv);
  mjd_comVelAt(m, d, w, cvel, cdd);
  rneAt(m, d, w, cvel, cdd, NULL, 0, -h, Gq, NULL, NULL);
  rneAt(m, d, d->qvel, d->cvel, d->cdof_dot, NULL, 0, h, Gq, NULL, NULL);
  mju_copy(w, acc, nv);
  mjd_comVelAt(m, d, w, cvel, cdd);
  rneAt(m, d, w, cvel, cdd, NULL, 0, h, Gq, NULL, NULL);
  rneAt(m, d, w, cvel, cdd, NULL, 0, -h, NULL, Gv, NULL);
  mj_freeStack(d, mark);
}

// G (column-major nv x (2 nv + na + nu)) = the right side of system sys differentiated at
// its solution acc (the head comment's G, without the solve); keep (NULL: not wanted) gets
// the RNE's composites at (qvel, acc) for the sensor pass
static void smoothG(const mjModel* m, mjData* d, int sys, const mjtNum* acc, mjtNum* G,
                    mjdComposite* keep) {
  int nv = m->nv, na = m->na, nu = m->nu;
  size_t mark = mj_markStack(d);
  mjtNum *Gq = G, *Gv = G + (size_t)nv * nv, *Gact = G + 2 * (size_t)nv * nv;
  mjtNum* Gu = Gact + (size_t)na * nv;

  // the inverse dynamics at a': -d rne(q, v, a')/dq and -d rne/dv
  mju_zero(G, nv * (2 * nv + na + nu));
  rneAt(m, d, d->qvel, d->cvel, d->cdof_dot, acc, 1, -1, Gq, Gv, keep);

  // implicit: -h d/dq [c0(v + a') - c0(v) - c0(a')] and -h dc0/dv at a'; implicitfast the
  // same on the rows of its standalone free bodies
  if (sys == SYS_IMPLICIT) {
    implicitRNE(m, d, acc, Gq, Gv);
  } else if (sys == SYS_FAST && anyStandaloneFree(m)) {
    mjtNum* T = mj_stackAlloc(d, 2 * (size_t)nv * nv);
    mju_zero(T, 2 * nv * nv);
    implicitRNE(m, d, acc, T, T + (size_t)nv * nv);
    for (int j = 0; j < m->njnt; j++) {
      int adr = mj_standaloneFree(m, j);
      for (int c = 0; c < 2 * nv && adr >= 0; c++)
        mju_addTo(G + (size_t)c * nv + adr, T + (size_t)c * nv + adr, 6);
    }
  }

  // passive and actuator forces; W's state-dependent damper slopes
  passiveDeriv(m, d, Gq, Gv);
  damperCurve(m, d, sys, acc, -1, Gq, Gv);
  if (mj_fluidOn(m)) fluidDeriv(m, d, Gq, Gv);
  appliedDeriv(m, d, Gq);
  actuatorDeriv(m, d, sys, acc, Gq, Gv, Gact, Gu);
  spatialTendonDeriv(m, d, sys, acc, Gq);
  mj_freeStack(d, mark);
}

// Y = d a'/d(q, v, act, u) (column-major nv x (2 nv + na + nu)) and acc = a' of system sys
// at the state of d after mj_forward.  Without constraint rows Y = inv(W) G.  With them the
// constrained qacc = a has da = inv(M + J'HJ) (G0 + Gc) (mjd_constraintAcc, G0 the G of
// qacc itself at a), and a system with its own W solves W a' = qfrc_smooth + J'f = M a, so
//   W da' = G(a') + d(J'f),  d(J'f) = M da - G0;
// for Euler (W = M + h diag(b), G(a') - G0 = -dM (a' - a) in the q columns) that is
//   da' = da - inv(W) (h b . da + dM (a' - a)),  dM (a' - a) the RNE's slope at rest.
// With C or D (not NULL) the sensors' Jacobians are taken on the way from da and the
// constraint forces' derivative (mjd_sensorDeriv; da then found first with or without rows)
static void accDeriv(const mjModel* m, mjData* d, int sys, mjtNum* Y, mjtNum* acc, mjtNum* C,
                     mjtNum* D) {
  int nv = m->nv, ncol = 2 * nv + m->na + m->nu, sensors = C || D;
  mjtNum h = m->opt.timestep;
  size_t mark = mj_markStack(d);
  Factor f;
  factorW(m, d, sys, &f);
  int own = f.ld || f.lu;

  // no constraint rows and no sensors: a' = inv(W) qfrc_smooth (the engine's qacc without a W
  // of its own)
  if (!d->nefc && !sensors) {
    if (own) {
      mju_copy(acc, d->qfrc_smooth, nv);
      solveW(m, d, &f, acc, 1);
    } else {
      mju_copy(acc, d->qacc, nv);
    }
    smoothG(m, d, sys, acc, Y, NULL);
    solveW(m, d, &f, Y, ncol);
    mj_freeStack(d, mark);
    return;
  }

  // the constrained acceleration, the answer when W is M; the sensors from it
  mjtNum* G0 = own && sys != SYS_EULER ? mj_stackAlloc(d, (size_t)nv * ncol) : NULL;
  mjtNum* dforce = sensors ? mj_stackAlloc(d, (size_t)d->nefc * ncol) : NULL;
  mjdComposite keep;
  if (sensors) mjd_compositeAlloc(m, d, &keep);
  smoothG(m, d, SYS_QACC, d->qacc, Y, sensors ? &keep : NULL);
  if (G0) mju_copy(G0, Y, nv * ncol);
  if (d->nefc && m->opt.noslip_iterations > 0) mjd_noslipAcc(m, d, Y, ncol, dforce);
  else if (d->nefc) mjd_constraintAcc(m, d, Y, ncol, dforce, NULL);
  else solveW(m, d, &(Factor){NULL, NULL, NULL}, Y, ncol);
  if (sensors) mjd_sensorDeriv(m, d, &keep, Y, dforce, C, D);
  mju_copy(acc, d->qacc, nv);
  if (!own) {
    mj_freeStack(d, mark);
    return;
  }
  mju_add(acc, d->qfrc_smooth, d->qfrc_constraint, nv);
  solveW(m, d, &f, acc, 1);

  // Euler: Y -= inv(W) (h b . Y + dM (a' - a) + (db/dv) a'), dM the RNE's slope with zero
  // velocities, b the damper slopes
  if (sys == SYS_EULER) {
    mjtNum* Z = mj_stackAlloc(d, (size_t)nv * ncol);
    mjtNum* w = mj_stackAlloc(d, (size_t)nv);
    for (int i = 0; i < nv; i++) w[i] = h * mj_dofDampingSlope(m, d, i);
    for (int c = 0; c < ncol; c++) {
      mjtNum *Zc = Z + (size_t)c * nv, *Yc = Y + (size_t)c * nv;
      for (int i = 0; i < nv; i++) Zc[i] = w[i] * Yc[i];
    }
    mju_sub(w, acc, d->qacc, nv);
    mjd_massSlope(m, d, w, 1, Z);
    damperCurve(m, d, SYS_EULER, acc, 1, NULL, Z + (size_t)nv * nv);
    solveW(m, d, &f, Z, ncol);
    mju_subFrom(Y, Z, nv * ncol);
    mj_freeStack(d, mark);
    return;
  }

  // implicit, implicitfast: W da' = G(a') - G0 + M da (G0 turned into the difference, M da by
  // rows in G(a')'s place, transposed in and out; both freed before the solve)
  size_t mark2 = mj_markStack(d);
  mjtNum* Gs = mj_stackAlloc(d, (size_t)nv * ncol);
  mjtNum* T = mj_stackAlloc(d, (size_t)nv * ncol);
  smoothG(m, d, sys, acc, Gs, NULL);
  mju_sub(G0, Gs, G0, nv * ncol);
  mju_transpose(T, Y, ncol, nv);
  mj_mulMRows(m, d, Gs, T, ncol);
  mju_transpose(Y, Gs, nv, ncol);
  mju_addTo(Y, G0, nv * ncol);
  mj_freeStack(d, mark2);
  solveW(m, d, &f, Y, ncol);
  mj_freeStack(d, mark);
}

// 0 when d's stack holds the temporaries of the analytic path (the step's state Jacobian, four
// for RK4; the acceleration's and at most three more of its size at a time, a solve's or a
// product's rows among them; the integrator's matrix; the constraint rows' dense Jacobian and
// its nonzeros, J da of every column; the sweeps; with `sensors` the forces' derivative, the
// RNE's composites kept and the sensor pass's; noslip's), else -1 and a message
static int checkStack(const mjModel* m, mjData* d, int sensors, char* err, int errsz) {
  size_t nv = m->nv, ndx = 2 * nv + m->na, ncol = ndx + m->nu;
  size_t nefc = d->nefc, nstate = m->opt.integrator == mjINT_RK4 ? 4 : 1;
  size_t need = (nstate * ndx + 4 * nv) * ncol + 4 * nv * nv + 16 * (size_t)m->nM +
                80 * (size_t)m->nbody + 43 * nv + 4 * nv * nefc + 15 * nefc + nefc * ncol +
                (nv + 3) * (size_t)m->neq + 64 +
                (sensors ? nefc * ncol + 64 * (size_t)m->nbody + mjd_sensorStack(m, d) : 0) +
                (m->opt.noslip_iterations > 0 ? mjd_noslipStack(m, d) : 0);
  size_t mark = mj_markStack(d);
  mjtNum* probe = mj_stackAlloc(d, need);
  mj_freeStack(d, mark);
  if (probe) return 0;
  snprintf(err, errsz, "the data stack cannot hold the derivative's %zu numbers", need);
  return -1;
}

// ---- public functions --------------------------------------------------------------------------

// d qacc / d(q, v, act, u) (through the constraint solve when there are rows), transposed
// from the column-major Y
int mjd_smoothAcc(const mjModel* m, mjData* d, mjtNum* DaDq, mjtNum* DaDv, mjtNum* DaDact,
                  mjtNum* DaDu, char* err, int errsz) {
  int nv = m->nv, ncol = 2 * m->nv + m->na + m->nu;
  if (mjd_checkAnalytic(m, d, err, errsz) || checkStack(m, d, 0, err, errsz)) return -1;
  size_t mark = mj_markStack(d);
  mjtNum* Y = mj_stackAlloc(d, (size_t)nv * ncol);
  mjtNum* acc = mj_stackAlloc(d, (size_t)nv);
  accDeriv(m, d, SYS_QACC, Y, acc, NULL, NULL);
  mjtNum* out[4] = {DaDq, DaDv, DaDact, DaDu};
  int width[4] = {nv, nv, m->na, m->nu}, c0 = 0;
  for (int b = 0; b < 4; c0 += width[b++]) {
    if (!out[b]) continue;
    for (int i = 0; i < nv; i++)
      for (int c = 0; c < width[b]; c++) out[b][i * width[b] + c] = Y[(size_t)(c0 + c) * nv + i];
  }
  mj_freeStack(d, mark);
  return 0;
}

// ---- the step's Jacobians ----------------------------------------------------------------------

// Jacobians of states are column-major ndx x (ndx + nu) with rows (dq, v, act) and columns
// (x, u); e_c is the identity's column c

// n rows of X (at X, leading dimension ldx) = e + s D (n rows at D, leading dimension ldd),
// column by column, the identity's ones where column c is row c - diag
static void identityPlus(mjtNum* X, int ldx, const mjtNum* D, int ldd, mjtNum s, int n,
                         int ncol, int diag) {
  for (int c = 0; c < ncol; c++) {
    mju_scl(X + (size_t)c * ldx, D + (size_t)c * ldd, s, n);
    if (c >= diag && c < diag + n) X[(size_t)c * ldx + c - diag] += 1;
  }
}

// the dq rows of T = d(q (+) s w)/d(x, u), q moving with x's own dq columns and dw =
// dw/d(x, u) given as the rows at dw (leading dimension ld): on a rotation exp(-s w) dq +
// Jr(s w) s dw, elsewhere dq + s dw
static void shiftRows(const mjModel* m, const mjtNum* w, mjtNum s, const mjtNum* dw, int ncol,
                      int ld, mjtNum* T) {
  identityPlus(T, ld, dw, ld, s, m->nv, ncol, 0);
  for (int j = 0; j < m->njnt; j++) {
    int adr = m->jnt_dofadr[j], type = m->jnt_type[j];
    int nlin = type == mjJNT_FREE ? 3 : type == mjJNT_BALL ? 0 : 1;
    if (type != mjJNT_FREE && type != mjJNT_BALL) continue;
    int r0 = adr + nlin;
    mjtNum quat[4] = {1, 0, 0, 0}, R[9], Jr[9], phi[3];
    mju_quatIntegrate(quat, w + r0, s);
    mju_quat2Mat(R, quat);
    mju_scl3(phi, w + r0, s);
    mjd_rightJacobian(phi, Jr, 0);
    for (int c = 0; c < ncol; c++) {
      const mjtNum* dwc = dw + (size_t)c * ld + r0;
      mjtNum* Tc = T + (size_t)c * ld + r0;
      for (int r = 0; r < 3; r++) {
        Tc[r] = c >= r0 && c < r0 + 3 ? R[3 * (c - r0) + r] : 0;
        for (int k = 0; k < 3; k++) Tc[r] += s * Jr[3 * r + k] * dwc[k];
      }
    }
  }
}

// the act rows of K = d act_dot/d(x, u) at the state of d, the stage's activations moving
// by the act rows of T (NULL: x's own act columns)
static void actDotRows(const mjModel* m, const mjData* d, const mjtNum* T, mjtNum* K) {
  int nv = m->nv, ndx = 2 * nv + m->na, ncol = ndx + m->nu;
  for (int c = 0; c < ncol; c++) mju_zero(K + (size_t)c * ndx + 2 * nv, m->na);
  for (int i = 0; i < m->nu; i++) {
    if (m->actuator_actnum[i] <= 0) continue;
    int row = 2 * nv + m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    mjtNum dact, dctrl;
    actDotSlope(m, d, i, &dact, &dctrl);
    for (int c = 0; c < ncol; c++)
      K[(size_t)c * ndx + row] = dact * (T ? T[(size_t)c * ndx + row] : c == row);
    K[(size_t)(ndx + i) * ndx + row] += dctrl;
  }
}

// the act rows of X = d act'/d(x, u) for act' = act + c sdot, the act rows of S its
// derivative (zero rows where actrange clamps, the identity without actuation)
static void nextActRows(const mjModel* m, const mjtNum* act, const mjtNum* sdot,
                        const mjtNum* S, mjtNum* X) {
  int nv = m->nv, ndx = 2 * nv + m->na, ncol = ndx + m->nu;
  for (int i = 0; i < m->nu; i++) {
    if (m->actuator_actnum[i] <= 0) continue;
    int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1, row = 2 * nv + adr;
    int clamped = actClamped(m, i, act[adr], sdot[adr]);
    mjtNum coef = clamped ? 0 : actCoef(m, i);
    for (int c = 0; c < ncol; c++)
      X[(size_t)c * ndx + row] = (c == row && clamped <= 0) + coef * S[(size_t)c * ndx + row];
  }
}

// X = d x'/d(x, u) of one Euler, implicit or implicitfast step at the state of d after
// mj_forward: v' rows e + h Y, dq rows by shiftRows with v', act rows from act_dot's slopes;
// C, D (either may be NULL) the sensors' Jacobians on the way (accDeriv)
static void stepJac(const mjModel* m, mjData* d, int sys, mjtNum* X, mjtNum* C, mjtNum* D) {
  int nv = m->nv, ndx = 2 * nv + m->na, ncol = ndx + m->nu;
  mjtNum h = m->opt.timestep;
  size_t mark = mj_markStack(d);
  mjtNum* Y = mj_stackAlloc(d, (size_t)nv * ncol);
  mjtNum* acc = mj_stackAlloc(d, (size_t)nv);
  mjtNum* vnext = mj_stackAlloc(d, (size_t)nv);
  accDeriv(m, d, sys, Y, acc, C, D);
  mju_addScl(vnext, d->qvel, acc, h, nv);
  identityPlus(X + nv, ndx, Y, nv, h, nv, ncol, nv);
  shiftRows(m, vnext, h, X + nv, ncol, ndx, X);
  actDotRows(m, d, NULL, X);
  nextActRows(m, d->act, d->act_dot, X, X);
  mj_freeStack(d, mark);
}

// X = d x'/d(x, u) of one RK4 step by the chain rule through its stages: stage i's state is
// X_i = x (+) a_i h k_{i-1} with Jacobian T_i, its k_i = (v, qacc, act_dot) at X_i has
// dk_i = (T_i's v rows, Y_i [T_i; 0 I], act_dot's slopes through T_i), and the step is
// x (+) h sum_i b_i k_i.  Each stage runs mj_forward at its state (the engine's own stage
// evaluations, no perturbation); d's state is restored and its forward pass rerun.  0, or -1
// with a message when a stage state uses a feature not differentiated or more rows than the
// stack holds.  C, D (either may be NULL): the sensors' Jacobians at the first stage (x's)
static int rk4Jac(const mjModel* m, mjData* d, mjtNum* X, mjtNum* C, mjtNum* D, char* err,
                  int errsz) {
  static const mjtNum A4[3] = {0.5, 0.5, 1}, B4[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  int nq = m->nq, nv = m->nv, na = m->na, ndx = 2 * nv + na, ncol = ndx + m->nu, rc = 0;
  mjtNum h = m->opt.timestep, t0 = d->time;
  size_t mark = mj_markStack(d), sz = (size_t)ndx * ncol;
  mjtNum *T = mj_stackAlloc(d, sz), *K = mj_stackAlloc(d, sz), *S = mj_stackAlloc(d, sz);
  mjtNum* Y = mj_stackAlloc(d, (size_t)nv * ncol);
  mjtNum* x0 = mj_stackAlloc(d, (size_t)nq + nv + na);
  mjtNum* k = mj_stackAlloc(d, 2 * (size_t)nv + na);
  mjtNum* sum = mj_stackAlloc(d, 2 * (size_t)nv + na);
  mjtNum *q0 = x0, *v0 = x0 + nq, *act0 = x0 + nq + nv;
  mju_copy(q0, d->qpos, nq);
  mju_copy(v0, d->qvel, nv);
  mju_copy(act0, d->act, na);
  mju_zero(S, (int)sz);
  mju_zero(sum, ndx);
  for (int i = 0; i < 4 && !rc; i++) {
    // stage state and its Jacobian T = e + a h dk_{i-1} (dq rows through the shift)
    if (i == 0) {
      mju_zero(T, (int)sz);
      for (int c = 0; c < ndx; c++) T[(size_t)c * ndx + c] = 1;
    } else {
      mjtNum ah = A4[i - 1] * h;
      mju_copy(d->qpos, q0, nq);
      mj_integratePos(m, d->qpos, k, ah);
      mju_addScl(d->qvel, v0, k + nv, ah, nv);
      mju_addScl(d->act, act0, k + 2 * nv, ah, na);
      d->time = t0 + ah;
      identityPlus(T + nv, ndx, K + nv, ndx, ah, nv + na, ncol, nv);
      shiftRows(m, k, ah, K, ncol, ndx, T);
      mj_forwardSkip(m, d, mjSTAGE_NONE, 1);
      rc = mjd_checkAnalytic(m, d, err, errsz) || checkStack(m, d, 0, err, errsz) ? -1 : 0;
      if (rc) break;
    }

    // dk_i through T, then k_i itself; both added to the weighted sums
    accDeriv(m, d, SYS_QACC, Y, k + nv, i ? NULL : C, i ? NULL : D);
    for (int c = 0; c < ncol; c++) {
      mjtNum *Kc = K + (size_t)c * ndx, *Tc = T + (size_t)c * ndx;
      mju_copy(Kc, Tc + nv, nv);
      mju_zero(Kc + nv, nv);
      for (int r = 0; r < ndx; r++)
        if (Tc[r]) mju_addToScl(Kc + nv, Y + (size_t)r * nv, Tc[r], nv);
      if (c >= ndx) mju_addTo(Kc + nv, Y + (size_t)c * nv, nv);
    }
    actDotRows(m, d, T, K);
    mju_copy(k, d->qvel, nv);
    mju_copy(k + 2 * nv, d->act_dot, na);
    mju_addToScl(S, K, B4[i], (int)sz);
    mju_addToScl(sum, k, B4[i], ndx);
  }

  // the step from x with the weighted sums
  if (!rc) {
    identityPlus(X + nv, ndx, S + nv, ndx, h, nv, ncol, nv);
    shiftRows(m, sum, h, S, ncol, ndx, X);
    nextActRows(m, act0, sum + 2 * nv, S, X);
  }
  mju_copy(d->qpos, q0, nq);
  mju_copy(d->qvel, v0, nv);
  mju_copy(d->act, act0, na);
  d->time = t0;
  mj_forward(m, d);
  mj_freeStack(d, mark);
  return rc;
}

// A = dx'/dx, B = dx'/du of one step from the state of d (mj_forward run here unless skip
// says d holds its outputs, never skipped under RK4), transposed from the column-major X;
// C = ds/dx, D = ds/du of the sensors at the state (computed by the forward pass the step
// starts with) from the forward acceleration's derivative and its constraint forces'
// (derivative_sensor.c)
int mjd_transitionSmoothSkip(const mjModel* m, mjData* d, int skip, mjtNum* A, mjtNum* B,
                             mjtNum* C, mjtNum* D, char* err, int errsz) {
  int nv = m->nv, nu = m->nu, ndx = 2 * nv + m->na, ncol = ndx + nu, rc = 0;
  int sensors = (C || D) && m->nsensordata;
  if (checkModel(m, err, errsz) || (sensors && mjd_checkSensor(m, err, errsz))) return -1;
  if (!skip || m->opt.integrator == mjINT_RK4) mj_forward(m, d);
  if (mjd_checkAnalytic(m, d, err, errsz) || checkStack(m, d, sensors, err, errsz)) return -1;
  size_t mark = mj_markStack(d);
  mjtNum *Cs = sensors ? C : NULL, *Ds = sensors ? D : NULL;
  mjtNum* X = mj_stackAlloc(d, (size_t)ndx * ncol);
  switch (m->opt.integrator) {
    case mjINT_RK4: rc = rk4Jac(m, d, X, Cs, Ds, err, errsz); break;
    case mjINT_IMPLICIT: stepJac(m, d, SYS_IMPLICIT, X, Cs, Ds); break;
    case mjINT_IMPLICITFAST: stepJac(m, d, SYS_FAST, X, Cs, Ds); break;
    default: stepJac(m, d, SYS_EULER, X, Cs, Ds); break;
  }
  if (A && !rc) mju_transpose(A, X, ndx, ndx);
  if (B && !rc) mju_transpose(B, X + (size_t)ndx * ndx, nu, ndx);
  if (!sensors) {
    int ns = m->nsensordata;
    if (C) mju_zero(C, ns * ndx);
    if (D) mju_zero(D, ns * nu);
  }
  mj_freeStack(d, mark);
  return rc;
}

// the Jacobians of one step from the state of d, its forward pass run here
int mjd_transitionSmooth(const mjModel* m, mjData* d, mjtNum* A, mjtNum* B, mjtNum* C,
                         mjtNum* D, char* err, int errsz) {
  return mjd_transitionSmoothSkip(m, d, 0, A, B, C, D, err, errsz);
}
