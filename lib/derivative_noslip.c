// derivative_noslip.c: the analytic derivative through noslip (mjd_noslipAcc, derivative.h).
// After the main solver (forces f0, acceleration a0, their derivatives df0, da0 found by
// mjd_constraintAcc at the implicit function theorem), noslip sweeps Gauss-Seidel over the
// friction rows with A = J inv(M) J' unregularized and every other force held (lib/solver.c,
// noslipBlock).  It usually stops at its iteration cap, not at a solution, so what the engine
// returns is the iterate after the sweeps it took, and its derivative is the chain rule
// through each update, carried forward for every column theta of (q, v, act, u).  An update
// moves the forces of its rows along e (a friction-loss row: e = 1; a pyramid's opposite
// edges: e = (1, -1)) by
//   x = clamp(-g/h, lo, hi),  g = e'res,  h = e'A e = u w  (u = e'J, w = inv(M) u'),
// res = J a - aref at a = qacc_smooth + inv(M) J'f, lo and hi the rows' bounds (friction loss:
// +-frictionloss - f; pyramid: -f+ and f-, keeping both edges non-negative); its slope is
//   dx = -(dg + x dh)/h  inside,  the bound's at a bound,
//   dg = e'djar0 + dJ_u (a - a0) + u (da - da0),  dh = 2 dJ_u w - w' dM w  (dJ_u = e'dJ).
// With  da - da0 = inv(M) (Q + J'(df - df0)),  Q = dJ'(f - f0) - dM (a - a0)  (J and M move
// with q alone: Q is 0 in the other columns),  u (da - da0) = w'Q + u P  with
// P = inv(M) J'(df - df0); an update adds x (dJ_u' - dM w) to Q, w dx to P, x w to a.
// At the end  da = da0 + inv(M) Q + P  and df is df0 updated.

#include "constraint.h"
#include "derivative.h"
#include "forward.h"
#include "smooth.h"
#include "util.h"

// the sweeps' state: the forces and acceleration, the slopes carried per column, scratch
typedef struct {
  int nv, nefc, ncol;
  const mjtNum* J;     // the rows of J, dense (nefc x nv)
  const mjtNum* djar;  // d jar at the main solution (nefc x ncol column-major)
  mjtNum* f;           // the forces (nefc)
  mjtNum* a;           // qacc_smooth + inv(M) J'f (nv)
  mjtNum* da;          // a - a0 (nv)
  mjtNum* df;          // d f (nefc x ncol)
  mjtNum* Q;           // dJ'(f - f0) - dM (a - a0) (nv x nv: the q columns)
  mjtNum* P;           // inv(M) J'(df - df0) (nv x ncol)
  mjtNum *u, *w, *e;   // the update's row u = e'J, w = inv(M) u', e over all rows (nefc)
  mjtNum *R, *Mw;      // dJ_u' and dM w by columns (nv x nv)
} Sweep;

// the update of rows i, i + 1 (nr of them) along e = (1, -1): x = clamp(-g/h, lo, hi) with
// lo = slo f[rlo] + clo, hi = shi f[rhi] + chi (the bounds' slopes slo df[rlo], shi df[rhi]);
// forces, acceleration and every column's slopes moved with it
static void update(const mjModel* m, mjData* d, Sweep* s, int i, int nr, int rlo, mjtNum slo,
                   mjtNum clo, int rhi, mjtNum shi, mjtNum chi) {
  int nv = s->nv, nefc = s->nefc;
  mjtNum e[2] = {1, -1};

  // u, w = inv(M) u', g = u a - e'aref, h = u w
  mju_zero(s->u, nv);
  mjtNum g = 0;
  for (int r = 0; r < nr; r++) {
    mju_addToScl(s->u, s->J + (size_t)(i + r) * nv, e[r], nv);
    g -= e[r] * d->efc_aref[i + r];
  }
  mj_solveM(m, d, s->w, s->u, 1);
  g += mju_dot(s->u, s->a, nv);
  mjtNum h = mju_dot(s->u, s->w, nv);
  if (h < mjMINVAL) return;

  // the step and which side clamps it (-1 lo, 1 hi, 0 none)
  mjtNum x = -g / h, lo = slo * s->f[rlo] + clo, hi = shi * s->f[rhi] + chi;
  int side = x < lo ? -1 : x > hi ? 1 : 0;
  x = side < 0 ? lo : side > 0 ? hi : x;

  // dJ_u' and dM w by q columns, wanted by dg, dh inside and by Q when the forces move
  if (!side || x) {
    mju_zero(s->e, nefc);
    for (int r = 0; r < nr; r++) s->e[i + r] = e[r];
    mjd_frictionSlopes(m, d, s->e, s->R);
    mju_zero(s->Mw, nv * nv);
    mjd_massSlope(m, d, s->w, 1, s->Mw);
  }

  // per column: dx, then df (e dx) and P (w dx); Q (q columns) after dg has read it
  for (int c = 0; c < s->ncol; c++) {
    mjtNum *df = s->df + (size_t)c * nefc, *P = s->P + (size_t)c * nv, dx;
    if (side) {
      dx = side < 0 ? slo * df[rlo] : shi * df[rhi];
    } else {
      mjtNum dg = mju_dot(s->u, P, nv), dh = 0;
      for (int r = 0; r < nr; r++) dg += e[r] * s->djar[(size_t)c * nefc + i + r];
      if (c < nv) {
        const mjtNum *R = s->R + (size_t)c * nv, *Mw = s->Mw + (size_t)c * nv;
        dg += mju_dot(R, s->da, nv) + mju_dot(s->w, s->Q + (size_t)c * nv, nv);
        dh = 2 * mju_dot(R, s->w, nv) - mju_dot(s->w, Mw, nv);
      }
      dx = -(dg + x * dh) / h;
    }
    for (int r = 0; r < nr; r++) df[i + r] += e[r] * dx;
    mju_addToScl(P, s->w, dx, nv);
    if (c < nv && x) {
      mjtNum* Q = s->Q + (size_t)c * nv;
      mju_addToScl(Q, s->R + (size_t)c * nv, x, nv);
      mju_addToScl(Q, s->Mw + (size_t)c * nv, -x, nv);
    }
  }

  // the forces and the acceleration
  for (int r = 0; r < nr; r++) s->f[i + r] += e[r] * x;
  mju_addToScl(s->a, s->w, x, nv);
  mju_addToScl(s->da, s->w, x, nv);
}

// one noslip sweep over the friction rows in the engine's order: friction-loss rows clamped
// to +-frictionloss, each pyramid's opposite edges (elliptic cones are refused)
static void sweep(const mjModel* m, mjData* d, Sweep* s) {
  for (int i = 0; i < s->nefc; i++) {
    int type = d->efc_type[i];
    if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
      mjtNum fl = d->efc_frictionloss[i];
      update(m, d, s, i, 1, i, -1, -fl, i, -1, fl);
    } else if (type == mjCNSTR_CONTACT_PYRAMIDAL) {
      int nrow = 2 * (d->contact[d->efc_id[i]].dim - 1);
      for (int a = i; a < i + nrow; a += 2) update(m, d, s, a, 2, a, -1, 0, a + 1, 1, 0);
      i += nrow - 1;
    }
  }
}

// the numbers mjd_noslipAcc takes from d's stack beyond mjd_constraintAcc's (derivative.h)
size_t mjd_noslipStack(const mjModel* m, const mjData* d) {
  size_t nv = m->nv, nefc = d->nefc, ncol = 2 * nv + m->na + m->nu;
  return 2 * nefc * ncol + nv * ncol + 3 * nv * nv + nefc * nv + 9 * nefc + 9 * nv +
         80 * (size_t)m->nbody + 64;
}

// Y (G0 at d->qacc on entry: noslip's acceleration), dforce (NULL: not wanted): the main
// solution is solved again from the same warmstart (qacc, forces, states and counts kept and
// put back), G0 moved to it (G0 is affine in qacc: + dM (qacc - a0)), differentiated there
// (mjd_constraintAcc), then carried through as many sweeps as noslip took (derivative.h)
void mjd_noslipAcc(const mjModel* m, mjData* d, mjtNum* Y, int ncol, mjtNum* dforce) {
  int nv = m->nv, nefc = d->nefc, niter = d->solver_niter;
  size_t mark = mj_markStack(d);
  mjtNum* qacc = mj_stackAlloc(d, (size_t)nv);
  mjtNum* qfrc = mj_stackAlloc(d, (size_t)nv);
  mjtNum* force = mj_stackAlloc(d, (size_t)nefc);
  int* state = (int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1);
  mju_copy(qacc, d->qacc, nv);
  mju_copy(qfrc, d->qfrc_constraint, nv);
  mju_copy(force, d->efc_force, nefc);
  for (int i = 0; i < nefc; i++) state[i] = d->efc_state[i];
  mj_solMain(m, d);
  int nsweep = niter - d->solver_niter;

  // the sweeps' arrays
  Sweep s = {.nv = nv, .nefc = nefc, .ncol = ncol};
  mjtNum* J = mj_stackAlloc(d, (size_t)nefc * nv);
  mjtNum* djar = mj_stackAlloc(d, (size_t)nefc * ncol);
  s.J = J, s.djar = djar;
  s.df = dforce ? dforce : mj_stackAlloc(d, (size_t)nefc * ncol);
  s.f = mj_stackAlloc(d, (size_t)nefc);
  s.e = mj_stackAlloc(d, (size_t)nefc);
  s.a = mj_stackAlloc(d, (size_t)nv);
  s.da = mj_stackAlloc(d, (size_t)nv);
  s.u = mj_stackAlloc(d, (size_t)nv);
  s.w = mj_stackAlloc(d, (size_t)nv);
  s.Q = mj_stackAlloc(d, (size_t)nv * nv);
  s.R = mj_stackAlloc(d, (size_t)nv * nv);
  s.Mw = mj_stackAlloc(d, (size_t)nv * nv);
  s.P = mj_stackAlloc(d, (size_t)nv * ncol);

  // the main solution's derivative: G0 at a0 = G0 at qacc + dM (qacc - a0)
  mju_sub(s.da, qacc, d->qacc, nv);
  mjd_massSlope(m, d, s.da, 1, Y);
  mjd_constraintAcc(m, d, Y, ncol, s.df, djar);

  // the sweeps from f0 and a = qacc_smooth + inv(M) J'f0
  for (int r = 0; r < nefc; r++) mj_efcRow(m, d, r, J + (size_t)r * nv);
  mju_copy(s.f, d->efc_force, nefc);
  mj_mulJacTVec(m, d, s.u, s.f);
  mj_solveM(m, d, s.a, s.u, 1);
  mju_addTo(s.a, d->qacc_smooth, nv);
  mju_zero(s.da, nv);
  mju_zero(s.Q, nv * nv);
  mju_zero(s.P, nv * ncol);
  for (int k = 0; k < nsweep; k++) sweep(m, d, &s);

  // da = da0 + inv(M) Q + P
  mj_solveM(m, d, s.Q, s.Q, nv);
  mju_addTo(Y, s.Q, nv * nv);
  mju_addTo(Y, s.P, nv * ncol);

  // noslip's outputs back
  mju_copy(d->qacc, qacc, nv);
  mju_copy(d->qfrc_constraint, qfrc, nv);
  mju_copy(d->efc_force, force, nefc);
  for (int i = 0; i < nefc; i++) d->efc_state[i] = state[i];
  d->solver_niter = niter;
  mj_freeStack(d, mark);
}
