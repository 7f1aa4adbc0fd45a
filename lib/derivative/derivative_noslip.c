// derivative_noslip.c: the analytic derivative through noslip (mjd_noslipAcc, derivative.h).
// After the main solver (forces f0, acceleration a0, their derivatives df0, da0 found by
// mjd_constraintAcc at the implicit function theorem), noslip sweeps Gauss-Seidel over the
// friction rows with A = J inv(M) J' unregularized and every other force held (lib/engine/solver.c,
// noslipBlock).  It usually stops at its iteration cap, not at a solution, so what the engine
// returns is the iterate after the sweeps it took, and its derivative is the chain rule
// through each update, carried forward for every column theta of (q, v, act, u).  A
// friction-loss row's or a pyramid's update moves the forces of its rows along e (a row: e = 1;
// a pyramid's opposite edges: e = (1, -1)) by
//   x = clamp(-g/h, lo, hi),  g = e'res,  h = e'A e = u w  (u = e'J, w = inv(M) u'),
// res = J a - aref at a = qacc_smooth + inv(M) J'f, lo and hi the rows' bounds (friction loss:
// +-frictionloss - f; pyramid: -f+ and f-, keeping both edges non-negative); its slope is
//   dx = -(dg + x dh)/h  inside,  the bound's at a bound,
//   dg = e'djar0 + dJ_u (a - a0) + u (da - da0),  dh = 2 dJ_u w - w' dM w  (dJ_u = e'dJ).
// With  da - da0 = inv(M) (Q + J'(df - df0)),  Q = dJ'(f - f0) - dM (a - a0)  (J and M move
// with q alone: Q is 0 in the other columns),  u (da - da0) = w'Q + u P  with
// P = inv(M) J'(df - df0); an update adds x (dJ_u' - dM w) to Q, w dx to P, x w to a.
// An elliptic contact's friction forces move to the exact minimizer over the cone's disk,
// differentiated by its KKT conditions (ellipticUpdate), each friction row a direction.
// At the end  da = da0 + inv(M) Q + P  and df is df0 updated.
#include <string.h>

#include "engine/constraint.h"
#include "derivative/derivative.h"
#include "engine/forward.h"
#include "engine/island.h"
#include "engine/smooth.h"
#include "engine/solver.h"
#include "util/util.h"

// the sweeps' state: the forces and acceleration, the slopes carried per column, and the
// directions of an update (slots: a pyramid's pair or friction-loss row in slot 0, an elliptic
// contact's friction rows one per slot)
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
  mjtNum* e;           // a direction's weights over all rows (nefc)
  mjtNum *u, *w;       // per slot: the direction's row u = e'J and w = inv(M) u' (nv each)
  mjtNum *R, *Mw;      // per slot: dJ_u' and dM w by q columns (nv x nv each)
} Sweep;

// slot's direction over the nr rows from i weighted by e: u, w = inv(M) u'; returns u's
// residual e'res = u a - e'aref
static mjtNum direction(const mjModel* m, mjData* d, Sweep* s, int slot, int i, int nr,
                        const mjtNum* e) {
  int nv = s->nv;
  mjtNum *u = s->u + (size_t)slot * nv, *w = s->w + (size_t)slot * nv, g = 0;
  mju_zero(u, nv);
  for (int r = 0; r < nr; r++) {
    mju_addToScl(u, s->J + (size_t)(i + r) * nv, e[r], nv);
    g -= e[r] * d->efc_aref[i + r];
  }
  mj_solveM(m, d, w, u, 1);
  return g + mju_dot(u, s->a, nv);
}

// slot's dJ_u' (the forces e on the rows from i held) and dM w by q columns
static void slopes(const mjModel* m, mjData* d, Sweep* s, int slot, int i, int nr,
                   const mjtNum* e) {
  size_t nv = s->nv;
  mju_zero(s->e, s->nefc);
  for (int r = 0; r < nr; r++) s->e[i + r] = e[r];
  mjd_frictionSlopes(m, d, s->e, s->R + slot * nv * nv);
  mju_zero(s->Mw + slot * nv * nv, nv * nv);
  mjd_massSlope(m, d, s->w + slot * nv, 1, s->Mw + slot * nv * nv);
}

// column c's slope of slot's residual (rows from i, weights e):
//   e'djar0 + u P + [q columns] dJ_u (a - a0) + w'Q
static mjtNum resSlope(const Sweep* s, int slot, int c, int i, int nr, const mjtNum* e) {
  size_t nv = s->nv;
  mjtNum g = mju_dot(s->u + slot * nv, s->P + c * nv, nv);
  for (int r = 0; r < nr; r++) g += e[r] * s->djar[(size_t)c * s->nefc + i + r];
  if (c < s->nv) {
    g += mju_dot(s->R + (slot * nv + c) * nv, s->da, nv);
    g += mju_dot(s->w + slot * nv, s->Q + c * nv, nv);
  }
  return g;
}

// column c's slope of A = J inv(M) J' between slots p and q: dJ_p w_q + dJ_q w_p - w_p'dM w_q
// in the q columns, 0 in the others
static mjtNum aSlope(const Sweep* s, int c, int p, int q) {
  size_t nv = s->nv;
  if (c >= s->nv) return 0;
  const mjtNum *wp = s->w + p * nv, *wq = s->w + q * nv;
  return mju_dot(s->R + (p * nv + c) * nv, wq, nv) + mju_dot(s->R + (q * nv + c) * nv, wp, nv) -
         mju_dot(wp, s->Mw + (q * nv + c) * nv, nv);
}

// the forces along slot's direction moved by x: Q (q columns) += x (dJ_u' - dM w), a += w x
static void moveForces(Sweep* s, int slot, mjtNum x) {
  size_t nv = s->nv;
  if (!x) return;
  for (size_t c = 0; c < nv; c++) {
    mju_addToScl(s->Q + c * nv, s->R + (slot * nv + c) * nv, x, nv);
    mju_addToScl(s->Q + c * nv, s->Mw + (slot * nv + c) * nv, -x, nv);
  }
  mju_addToScl(s->a, s->w + slot * nv, x, nv);
  mju_addToScl(s->da, s->w + slot * nv, x, nv);
}

// the update of rows i, i + 1 (nr of them) along e = (1, -1): x = clamp(-g/h, lo, hi) with
// lo = slo f[rlo] + clo, hi = shi f[rhi] + chi (the bounds' slopes slo df[rlo], shi df[rhi])
static void pairUpdate(const mjModel* m, mjData* d, Sweep* s, int i, int nr, int rlo,
                       mjtNum slo, mjtNum clo, int rhi, mjtNum shi, mjtNum chi) {
  static const mjtNum e[2] = {1, -1};
  int nefc = s->nefc;
  mjtNum g = direction(m, d, s, 0, i, nr, e), h = mju_dot(s->u, s->w, s->nv);
  if (h < mjMINVAL) return;

  // the step and which side clamps it (-1 lo, 1 hi, 0 none); the slopes when wanted (by dg,
  // dh inside, by Q when the forces move)
  mjtNum x = -g / h, lo = slo * s->f[rlo] + clo, hi = shi * s->f[rhi] + chi;
  int side = x < lo ? -1 : x > hi ? 1 : 0;
  x = side < 0 ? lo : side > 0 ? hi : x;
  if (!side || x) slopes(m, d, s, 0, i, nr, e);

  // per column: dx (the bound's, or -(dg + x dh)/h), then df (e dx) and P (w dx)
  for (int c = 0; c < s->ncol; c++) {
    mjtNum* df = s->df + (size_t)c * nefc;
    mjtNum dx = side < 0   ? slo * df[rlo]
                : side > 0 ? shi * df[rhi]
                           : -(resSlope(s, 0, c, i, nr, e) + x * aSlope(s, c, 0, 0)) / h;
    for (int r = 0; r < nr; r++) df[i + r] += e[r] * dx;
    mju_addToScl(s->P + (size_t)c * s->nv, s->w, dx, s->nv);
  }
  for (int r = 0; r < nr; r++) s->f[i + r] += e[r] * x;
  moveForces(s, 0, x);
}

// an elliptic contact's friction forces y (nt rows after its normal row i) as the engine's
// mju_QCQP finds them: the minimizer of 0.5 y'A y + y'b, A = Att, b = res_t - A y_old, over
// sum (y_j / mu_j)^2 <= r^2 (r the normal force; y = 0 when r <= 0).  Its KKT conditions
//   (A + lambda W) y = -b,  y'W y = r^2 when active (W = diag(1 / mu^2)), lambda = 0 inside,
// give with g = dA y + db = dA (y - y_old) + dres_t - A dy_old and K = A + lambda W:
//   dy = -inv(K) (g + dlambda W y),  dlambda = -(r dr + y'W inv(K) g) / (y'W inv(K) W y)
static void ellipticUpdate(const mjModel* m, mjData* d, Sweep* s, int i) {
  static const mjtNum one = 1;
  const mjContact* con = d->contact + d->efc_id[i];
  int nt = con->dim - 1, nefc = s->nefc, nv = s->nv;
  // (A and b zeroed: the compiler cannot see that nt >= 1 fills what mju_QCQP reads)
  mjtNum A[25] = {0}, K[25], b[5] = {0}, y[5], delta[5], Wy[5], t[5], z[5], dy[5], lambda = 0;

  // A, b and the engine's minimizer; the slopes unless nothing moves
  for (int j = 0; j < nt; j++) b[j] = direction(m, d, s, j, i + 1 + j, 1, &one);
  for (int j = 0; j < nt; j++) {
    for (int k = 0; k < nt; k++) A[j * nt + k] = mju_dot(s->u + j * nv, s->w + k * nv, nv);
    b[j] -= mju_dot(A + j * nt, s->f + i + 1, nt);
  }
  mjtNum r = s->f[i];
  int active = 0, moved = 0;
  if (r <= 0) mju_zero(y, nt);
  else active = mju_QCQP(y, A, b, con->friction, r, nt, &lambda);
  for (int j = 0; j < nt; j++) {
    delta[j] = y[j] - s->f[i + 1 + j];
    moved |= delta[j] != 0;
  }
  if (r <= 0 && !moved) return;
  for (int j = 0; j < nt; j++) slopes(m, d, s, j, i + 1 + j, 1, &one);

  // K's factor, W y and t = inv(K) W y
  for (int j = 0; j < nt * nt; j++) K[j] = A[j];
  for (int j = 0; j < nt; j++) {
    K[j * nt + j] += lambda / (con->friction[j] * con->friction[j]);
    Wy[j] = active ? y[j] / (con->friction[j] * con->friction[j]) : 0;
  }
  mju_cholFactor(K, nt, mjMINVAL);
  mju_cholSolve(t, K, Wy, nt);
  mjtNum yWt = mju_dot(Wy, t, nt);

  // per column: dy (0 without a normal force), df and P (w_j (dy_j - df_j))
  for (int c = 0; c < s->ncol; c++) {
    mjtNum *df = s->df + (size_t)c * nefc, *dft = df + i + 1;
    mju_zero(dy, nt);
    for (int j = 0; j < nt && r > 0; j++) {
      z[j] = resSlope(s, j, c, i + 1 + j, 1, &one) - mju_dot(A + j * nt, dft, nt);
      for (int k = 0; k < nt; k++) z[j] += aSlope(s, c, j, k) * delta[k];
    }
    if (r > 0) {
      mju_cholSolve(z, K, z, nt);
      mjtNum dl = active && yWt > mjMINVAL ? -(r * df[i] + mju_dot(Wy, z, nt)) / yWt : 0;
      for (int j = 0; j < nt; j++) dy[j] = -z[j] - dl * t[j];
    }
    for (int j = 0; j < nt; j++) {
      mju_addToScl(s->P + (size_t)c * nv, s->w + j * nv, dy[j] - dft[j], nv);
      dft[j] = dy[j];
    }
  }
  for (int j = 0; j < nt; j++) {
    s->f[i + 1 + j] = y[j];
    moveForces(s, j, delta[j]);
  }
}

// sweep t of noslip over the friction rows in the engine's order: friction-loss rows clamped
// to +-frictionloss, each pyramid's opposite edges, elliptic contacts' friction forces; the rows
// of an island whose noslip stopped after nsweep[row] <= t sweeps are left as they are
static void sweep(const mjModel* m, mjData* d, Sweep* s, const int* nsweep, int t) {
  for (int i = 0; i < s->nefc; i++) {
    int type = d->efc_type[i], dim = type >= mjCNSTR_CONTACT_FRICTIONLESS
                                         ? d->contact[d->efc_id[i]].dim : 1;
    if (nsweep[i] <= t) {
      i += type == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (dim - 1) - 1
           : type == mjCNSTR_CONTACT_ELLIPTIC ? dim - 1 : 0;
    } else if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
      mjtNum fl = d->efc_frictionloss[i];
      pairUpdate(m, d, s, i, 1, i, -1, -fl, i, -1, fl);
    } else if (type == mjCNSTR_CONTACT_PYRAMIDAL) {
      int nrow = 2 * (dim - 1);
      for (int a = i; a < i + nrow; a += 2) pairUpdate(m, d, s, a, 2, a, -1, 0, a + 1, 1, 0);
      i += nrow - 1;
    } else if (type == mjCNSTR_CONTACT_ELLIPTIC) {
      if (dim > 1) ellipticUpdate(m, d, s, i);
      i += dim - 1;
    }
  }
}

// the direction slots an update of d's rows takes: 5 with elliptic contacts, else 1
static int slotCount(const mjData* d) {
  for (int i = 0; i < d->nefc; i++)
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) return 5;
  return 1;
}

// the numbers mjd_noslipAcc takes from d's stack beyond mjd_constraintAcc's (derivative.h)
size_t mjd_noslipStack(const mjModel* m, const mjData* d) {
  size_t nv = m->nv, nefc = d->nefc, ncol = 2 * nv + m->na + m->nu;
  size_t nslot = slotCount(d);
  // the main solve again, in its island's view (mj_islandFind, mj_islandView)
  size_t island = 2 * (size_t)m->nM + 8 * nv + 10 * nefc + 2 * (size_t)d->nJ +
                  4 * (size_t)m->nbody + 16;
  return 2 * nefc * ncol + nv * ncol + (2 * nslot + 1) * nv * nv + nefc * nv + 9 * nefc +
         (2 * nslot + 7) * nv + 80 * (size_t)m->nbody + 64 + island;
}

// Y (G0 at d->qacc on entry: noslip's acceleration), dforce (NULL: not wanted): the main
// solution is solved again from the same warmstart (qacc, forces, states and counts kept and
// put back), G0 moved to it (G0 is affine in qacc: + dM (qacc - a0)), differentiated there
// (mjd_constraintAcc), then carried through as many sweeps as noslip took, island by island
// (derivative.h)
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

  // the sweeps each row took: its island's total less the main solve's again, or noslip's
  int* nsweep = (int*)mj_stackAlloc(d, (size_t)nefc / 2 + 1);
  int nisland = d->nisland, *total = (int*)mj_stackAlloc(d, (size_t)nisland / 2 + 1), most = 0;
  if (nisland) memcpy(total, d->island_niter, sizeof(int) * nisland);
  mj_solMain(m, d);
  mjIslands isl;
  if (nisland && d->nisland == nisland && mj_islandFind(m, d, &isl) > 0) {
    for (int k = 0; k < nisland; k++)
      for (int e = isl.efcadr[k]; e < isl.efcadr[k + 1]; e++)
        nsweep[isl.efc[e]] = total[k] - d->island_niter[k];
  } else {
    for (int i = 0; i < nefc; i++) nsweep[i] = niter - d->solver_niter;
  }
  for (int i = 0; i < nefc; i++) most = nsweep[i] > most ? nsweep[i] : most;

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
  size_t nslot = slotCount(d);
  s.u = mj_stackAlloc(d, nslot * nv);
  s.w = mj_stackAlloc(d, nslot * nv);
  s.Q = mj_stackAlloc(d, (size_t)nv * nv);
  s.R = mj_stackAlloc(d, nslot * nv * nv);
  s.Mw = mj_stackAlloc(d, nslot * nv * nv);
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
  for (int t = 0; t < most; t++) sweep(m, d, &s, nsweep, t);

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
