// solver.c: the constraint solvers of the computation chapter.  Given the constraint rows of
// the step (efc_J, efc_D, efc_R, efc_aref, efc_frictionloss, the contacts' mu and friction),
// they find the constrained acceleration qacc and the constraint forces efc_force.
//
// Primal problem (CG, Newton): minimize over qacc
//   cost(qacc) = 0.5 (qacc - qacc_smooth)' M (qacc - qacc_smooth) + sum_i s_i(jar)
// with jar = J qacc - aref and s the convex, piecewise quadratic constraint costs of
// mj_constraintUpdate.  Both solvers step along a search direction with an exact line search:
// the cost along the line is piecewise quadratic (smooth for elliptic cones), so 1-D Newton
// steps with analytic first and second derivatives, safeguarded by a bracket, find its minimum.
// CG takes Polak-Ribiere-plus directions preconditioned by M; Newton takes -inv(H) grad with
// the exact Hessian H = M + J' D_active J (+ the cone Hessians), assembled over the rows'
// non-zero columns and factored once per solve: densely (L L') for a dense J, else as a
// sparse L' D L in the structure of M and the rows (jacobian auto: sparse when nv >= 60);
// between iterations rows changing state are rank-one updates and downdates of the factor
// (elliptic cones refactor), and the factor is only brought up to date when another
// iteration follows.  J products use the rows' non-zeros (a dense J's gathered once).
//
// Dual problem (PGS): minimize over the forces f
//   0.5 f' A f + f' b,  A = J inv(M) J' + diag(R),  b = J qacc_smooth - aref
// subject to the bounds of each row (friction loss box, non-negative limit and contact normal
// forces, elliptic cones), by projected Gauss-Seidel over rows and elliptic contacts, along
// MuJoCo 3.14's iterates: a shuffled order each sweep, Nesterov's momentum between sweeps, its
// elliptic update.  A is never formed: with A = W'W + diag(R),
// W = D^-1/2 inv(L') J' sparse over each row's kinematic chains (half a solve with qLD), a
// row's residual is its column of W against z = W f, kept up to date as the forces move.
//
// Noslip (opt.noslip_iterations > 0) then sweeps PGS over the friction rows alone, without
// their regularizer and with the normal forces held, to remove the soft model's slip.
//
// Improvement and gradient are scaled by 1 / (meaninertia max(1, nv)), as in MuJoCo, so the
// tolerance is independent of the model's mass scale.  With the island flag on (MuJoCo's
// default) each constraint island is solved alone (lib/engine/island.c), CG and Newton scaled
// by 1 / (the trace of the island's M) instead.
#include "engine/solver.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/constraint.h"
#include "engine/model.h"
#include "engine/island.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- dense linear algebra ----------------------------------------------------------------------

// mat = L L' in the lower triangle, row by row (the upper triangle is not read)
int mju_cholFactor(mjtNum* mat, int n, mjtNum mindiag) {
  int nreplaced = 0;
  for (int j = 0; j < n; j++) {
    // pivot: mat(j,j) - sum_k L(j,k)^2
    mjtNum* rowj = mat + j * n;
    mjtNum p = rowj[j] - mju_dot(rowj, rowj, j);
    if (p < mindiag) {
      p = mindiag;
      nreplaced++;
    }
    rowj[j] = sqrt(p);
    mjtNum inv = 1 / rowj[j];

    // column j below the pivot: L(i,j) = (mat(i,j) - sum_k L(i,k) L(j,k)) / L(j,j)
    for (int i = j + 1; i < n; i++) {
      mjtNum* rowi = mat + i * n;
      rowi[j] = (rowi[j] - mju_dot(rowi, rowj, j)) * inv;
    }
  }
  return nreplaced;
}

// forward substitution L y = vec, then back substitution L' res = y
void mju_cholSolve(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int n) {
  if (res != vec) mju_copy(res, vec, n);
  for (int i = 0; i < n; i++) {
    res[i] = (res[i] - mju_dot(mat + i * n, res, i)) / mat[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    res[i] /= mat[i * n + i];
    for (int k = 0; k < i; k++) res[k] -= mat[i * n + k] * res[i];
  }
}

// X = inv(L L') X for n right sides held by rows (X(i, :) at X + i n): mju_cholSolve's
// substitutions with each nonzero factor entry updating a whole row (AVX2 where there is)
mjuVECTOR void mju_cholSolveRows(mjtNum* X, const mjtNum* mat, int nv, int n) {
  for (int i = 0; i < nv; i++) {
    mjtNum* xi = X + (size_t)i * n;
    for (int k = 0; k < i; k++)
      if (mat[i * nv + k]) mju_addToScl(xi, X + (size_t)k * n, -mat[i * nv + k], n);
    mju_scl(xi, xi, 1 / mat[i * nv + i], n);
  }
  for (int i = nv - 1; i >= 0; i--) {
    mjtNum* xi = X + (size_t)i * n;
    mju_scl(xi, xi, 1 / mat[i * nv + i], n);
    for (int k = 0; k < i; k++)
      if (mat[i * nv + k]) mju_addToScl(X + (size_t)k * n, xi, -mat[i * nv + k], n);
  }
}

// L L' + sign x x' in place, column by column with plane rotations (hyperbolic when sign < 0):
// r = sqrt(L_kk^2 + sign x_k^2), c = r / L_kk, s = x_k / L_kk, then for i > k
// L_ik = (L_ik + sign s x_i) / c and x_i = c x_i - s L_ik; columns where x is zero are skipped
// (they do not change)
int mju_cholUpdate(mjtNum* mat, mjtNum* x, int n, int flg_plus) {
  mjtNum sign = flg_plus ? 1 : -1;
  for (int k = 0; k < n; k++) {
    if (x[k] == 0) continue;
    mjtNum Lkk = mat[k * n + k], r2 = Lkk * Lkk + sign * x[k] * x[k];
    if (r2 < mjMINVAL) return 0;
    mjtNum r = sqrt(r2), c = r / Lkk, s = x[k] / Lkk;
    mat[k * n + k] = r;
    for (int i = k + 1; i < n; i++) {
      mjtNum* Lik = mat + i * n + k;
      *Lik = (*Lik + sign * s * x[i]) / c;
      x[i] = c * x[i] - s * *Lik;
    }
  }
  return 1;
}

// ---- sparse L'DL ---------------------------------------------------------------------------
// H = L' D L with L unit lower triangular, eliminated from the last row to the first as the
// inertia's factor qLD is (no fill within a kinematic tree).  L is stored by rows: row k holds
// its strictly lower entries in ascending columns, rownnz[k] of them from rowadr[k]; the
// structure must be closed under the elimination (row k's columns below any of its columns i
// are among row i's), so the last column of row k is its parent in the elimination tree.

// row k of H: D[k] -= sum over columns i of row k of h_ki^2 / d_k, and row i of H -= (h_ki /
// d_k) h_kj for its columns j < i in row k; then row k /= d_k
int mju_factorLDL(mjtNum* L, mjtNum* D, int n, const int* rownnz, const int* rowadr,
                  const int* colind, mjtNum mindiag) {
  int nreplaced = 0;
  for (int k = n - 1; k >= 0; k--) {
    if (D[k] < mindiag) {
      D[k] = mindiag;
      nreplaced++;
    }
    mjtNum inv = 1 / D[k], *lk = L + rowadr[k];
    const int* ck = colind + rowadr[k];
    for (int p = rownnz[k] - 1; p >= 0; p--) {
      int i = ck[p];
      mjtNum t = lk[p] * inv, *li = L + rowadr[i];
      D[i] -= t * lk[p];

      // row i's columns are ck[0..p) when it has p of them, else a superset: merge
      if (rownnz[i] == p) {
        for (int q = 0; q < p; q++) li[q] -= t * lk[q];
      } else {
        const int* ci = colind + rowadr[i];
        for (int q = 0, r = 0; q < p; q++, r++) {
          while (ci[r] != ck[q]) r++;
          li[r] -= t * lk[q];
        }
      }
    }
    for (int p = 0; p < rownnz[k]; p++) lk[p] *= inv;
  }
  return nreplaced;
}

// L' y = vec from the last row up, y /= D, then L res = y from the first row down
void mju_solveLDL(mjtNum* res, const mjtNum* L, const mjtNum* D, const mjtNum* vec, int n,
                  const int* rownnz, const int* rowadr, const int* colind) {
  if (res != vec) mju_copy(res, vec, n);
  for (int k = n - 1; k >= 0; k--) {
    mjtNum yk = res[k];
    if (yk == 0) continue;
    const mjtNum* lk = L + rowadr[k];
    const int* ck = colind + rowadr[k];
    for (int p = 0; p < rownnz[k]; p++) res[ck[p]] -= lk[p] * yk;
  }
  for (int k = 0; k < n; k++) {
    const mjtNum* lk = L + rowadr[k];
    const int* ck = colind + rowadr[k];
    mjtNum s = res[k] / D[k];
    for (int p = 0; p < rownnz[k]; p++) s -= lk[p] * res[ck[p]];
    res[k] = s;
  }
}

// the rows the update reaches, from the columns of x up the elimination tree (each row's last
// column), sorted descending; then per row j of that path (Gill, Golub, Murray and Saunders):
// p = x_j, d' = d_j + a p^2, b = a p / d', a = a d_j / d', d_j = d', and over row j's columns i:
// x_i -= p L_ji, L_ji += b x_i (a starts at +-1)
int mju_updateLDL(mjtNum* L, mjtNum* D, mjtNum* x, int flg_plus, const int* ind, int nind,
                  int n, const int* rownnz, const int* rowadr, const int* colind, int* work) {
  int *mark = work, *path = work + n, npath = 0;
  for (int k = 0; k < nind; k++) {
    for (int j = ind[k]; j >= 0 && !mark[j];) {
      mark[j] = 1;
      path[npath++] = j;
      j = rownnz[j] ? colind[rowadr[j] + rownnz[j] - 1] : -1;
    }
  }

  // insertion sort, descending: paths are short and nearly sorted
  for (int k = 1; k < npath; k++) {
    int v = path[k], q = k;
    for (; q > 0 && path[q - 1] < v; q--) path[q] = path[q - 1];
    path[q] = v;
  }

  int ok = 1;
  mjtNum a = flg_plus ? 1 : -1;
  for (int k = 0; k < npath; k++) {
    int j = path[k];
    mjtNum p = x[j];
    if (p == 0) continue;
    mjtNum dnew = D[j] + a * p * p;
    if (dnew < mjMINVAL) {
      ok = 0;
      break;
    }
    mjtNum b = a * p / dnew;
    a *= D[j] / dnew;
    D[j] = dnew;
    mjtNum* lj = L + rowadr[j];
    const int* cj = colind + rowadr[j];
    for (int q = 0; q < rownnz[j]; q++) {
      x[cj[q]] -= p * lj[q];
      lj[q] += b * x[cj[q]];
    }
  }

  // leave the marks and x zero
  for (int k = 0; k < npath; k++) {
    mark[path[k]] = 0;
    x[path[k]] = 0;
  }
  return ok;
}

// ---- small conic problems ---------------------------------------------------------------------

// solve (B + lambda I) y = c for a small symmetric positive definite B (n <= 5) by Cholesky
static void shiftedSolve(mjtNum* y, const mjtNum* B, const mjtNum* c, mjtNum lambda, int n) {
  mjtNum L[25];
  mju_copy(L, B, n * n);
  for (int i = 0; i < n; i++) L[i * n + i] += lambda;
  mju_cholFactor(L, n, mjMINVAL);
  mju_cholSolve(y, L, c, n);
}

// in y = x / d the problem is min 0.5 y'By + y'c over |y| <= r with B = DAD, c = Db;
// outside the ball the answer is y(l) = -inv(B + l I) c with |y(l)| = r, found by Newton's
// method on phi(l) = |y(l)|^2 - r^2 from l = 0 (phi is convex and decreasing in l)
int mju_QCQP(mjtNum* x, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n,
             mjtNum* lambda_out) {
  mjtNum B[25] = {0}, c[5] = {0}, y[5], z[5];
  for (int i = 0; i < n; i++) {
    c[i] = d[i] * b[i];
    for (int j = 0; j < n; j++) B[i * n + j] = d[i] * A[i * n + j] * d[j];
  }

  // unconstrained minimizer inside the ball: done
  mjtNum lambda = 0;
  shiftedSolve(y, B, c, 0, n);
  mjtNum phi = mju_dot(y, y, n) - r * r;
  int active = phi > 0;

  // Newton on phi: phi'(l) = -2 y' inv(B + l I) y
  for (int iter = 0; active && iter < 50 && phi > 1e-14 * r * r; iter++) {
    shiftedSolve(z, B, y, lambda, n);
    mjtNum dphi = 2 * mju_dot(y, z, n);
    if (dphi < mjMINVAL) break;
    lambda += phi / dphi;
    shiftedSolve(y, B, c, lambda, n);
    phi = mju_dot(y, y, n) - r * r;
  }

  // y = -inv(B + l I) c, scaled onto the sphere when the bound is active; x = D y
  mjtNum norm = mju_norm(y, n);
  mjtNum scl = active && norm > mjMINVAL ? r / norm : 1;
  for (int i = 0; i < n; i++) x[i] = -y[i] * scl * d[i];
  if (lambda_out) *lambda_out = active ? lambda : 0;
  return active;
}

// ---- the constraint Jacobian ----------------------------------------------------------------

// J as compressed rows for the primal solvers: efc_J itself when it is sparse, else the
// non-zeros of its dense rows gathered once per solve, so that the products and the Hessian
// skip zero columns
typedef struct {
  const int* rownnz;  // non-zeros of each row     (nefc)
  const int* rowadr;  // start of each row         (nefc)
  const int* colind;  // columns, ascending        (nnz)
  const mjtNum* val;  // values                    (nnz)
} JacRows;

// the compressed rows of efc_J; a dense J's non-zeros (within each row's efc_J_rowlen when
// kept) go to d's stack; 0 when it is too small
static int jacRows(const mjModel* m, mjData* d, JacRows* J) {
  int nv = m->nv, nefc = d->nefc;
  if (mj_isSparse(m)) {
    J->rownnz = d->efc_J_rownnz;
    J->rowadr = d->efc_J_rowadr;
    J->colind = d->efc_J_colind;
    J->val = d->efc_J;
    return 1;
  }
  size_t nJ = (size_t)nefc * nv;
  int rowlen = mj_denseRowLengths(m);
  int *rownnz = mj_stackInt(d, nefc), *rowadr = mj_stackInt(d, nefc), *colind = mj_stackInt(d, nJ);
  mjtNum* val = mj_stackAlloc(d, nJ);
  if (!rownnz || !rowadr || !colind || !val) return 0;
  for (int i = 0, adr = 0; i < nefc; i++) {
    const mjtNum* row = d->efc_J + (size_t)i * nv;
    int len = rowlen ? d->efc_J_rowlen[i] : nv;
    rowadr[i] = adr;
    for (int j = 0; j < len; j++) {
      if (row[j] == 0) continue;
      colind[adr] = j;
      val[adr++] = row[j];
    }
    rownnz[i] = adr - rowadr[i];
  }
  J->rownnz = rownnz;
  J->rowadr = rowadr;
  J->colind = colind;
  J->val = val;
  return 1;
}

// res (nefc) = J vec
static void jacVec(const JacRows* J, int nefc, mjtNum* res, const mjtNum* vec) {
  for (int i = 0; i < nefc; i++) {
    const mjtNum* v = J->val + J->rowadr[i];
    const int* c = J->colind + J->rowadr[i];
    mjtNum s = 0;
    for (int k = 0; k < J->rownnz[i]; k++) s += v[k] * vec[c[k]];
    res[i] = s;
  }
}

// res (nv) = J' vec, skipping the rows where vec is zero (satisfied constraints)
static void jacTVec(const JacRows* J, int nefc, int nv, mjtNum* res, const mjtNum* vec) {
  mju_zero(res, nv);
  for (int i = 0; i < nefc; i++) {
    if (vec[i] == 0) continue;
    const mjtNum* v = J->val + J->rowadr[i];
    const int* c = J->colind + J->rowadr[i];
    for (int k = 0; k < J->rownnz[i]; k++) res[c[k]] += v[k] * vec[i];
  }
}

// whether rows i and i - 1 of J have the same columns (a contact's rows usually do)
static int sameColumns(const JacRows* J, int i) {
  int n = J->rownnz[i];
  return i > 0 && n == J->rownnz[i - 1] &&
         !memcmp(J->colind + J->rowadr[i], J->colind + J->rowadr[i - 1], sizeof(int) * n);
}

// ---- the primal cost -------------------------------------------------------------------------

// the contact an elliptic row block starts, or NULL when row i does not start one (the block's
// rows are consecutive, of one contact: found from the rows, so that an island's rows, numbered
// anew, find theirs)
static const mjContact* ellipticStart(const mjData* d, int i) {
  if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) return NULL;
  if (i && d->efc_type[i - 1] == mjCNSTR_CONTACT_ELLIPTIC && d->efc_id[i - 1] == d->efc_id[i])
    return NULL;
  return d->contact + d->efc_id[i];
}

// the scales taking jar of an elliptic block to the space where its cone is circular:
// s = (mu, friction[0], ..., friction[dim-2])
static void coneScale(const mjContact* con, mjtNum s[6]) {
  s[0] = con->mu;
  for (int j = 1; j < con->dim; j++) s[j] = con->friction[j - 1];
}

// cost, force and Hessian of one elliptic block of rows i.. at jar (U = s .* jar, N = U[0],
// T = |U[1:]|): top zone N >= mu T is satisfied; bottom zone mu N + T <= 0 is quadratic in
// every row; in between the cone cost 0.5 Dm (N - mu T)^2, Dm = D[i] / (mu^2 (1 + mu^2));
// returns the cost, writes force and state rows, and H (dim x dim, in jar space) when asked
static mjtNum ellipticUpdate(mjData* d, mjContact* con, int i, const mjtNum* jar, int flg_H) {
  int dim = con->dim;
  mjtNum mu = con->mu, s[6], U[6] = {0};
  coneScale(con, s);
  for (int j = 0; j < dim; j++) U[j] = s[j] * jar[i + j];
  mjtNum N = U[0], T = mju_norm(U + 1, dim - 1), cost = 0;

  // top zone: no force
  if (N >= mu * T) {
    for (int j = 0; j < dim; j++) {
      d->efc_force[i + j] = 0;
      d->efc_state[i + j] = mjCNSTRSTATE_SATISFIED;
    }
  }

  // bottom zone: every row quadratic
  else if (mu * N + T <= 0) {
    for (int j = 0; j < dim; j++) {
      d->efc_force[i + j] = -d->efc_D[i + j] * jar[i + j];
      d->efc_state[i + j] = mjCNSTRSTATE_QUADRATIC;
      cost += 0.5 * d->efc_D[i + j] * jar[i + j] * jar[i + j];
    }
  }

  // middle zone: force = -grad of 0.5 Dm (N - mu T)^2 through U = s .* jar
  else {
    mjtNum Dm = d->efc_D[i] / (mu * mu * (1 + mu * mu)), NmT = N - mu * T;
    cost = 0.5 * Dm * NmT * NmT;
    d->efc_force[i] = -Dm * NmT * mu;
    for (int j = 1; j < dim; j++) d->efc_force[i + j] = Dm * NmT * mu * U[j] / T * s[j];
    for (int j = 0; j < dim; j++) d->efc_state[i + j] = mjCNSTRSTATE_CONE;

    // Hessian in U: [[1, -mu U'/T], [-mu U/T, mu N UU'/T^3 + mu (mu - N/T) I]] Dm, then
    // H(j,k) = s_j s_k HU(j,k)
    if (flg_H) {
      mjtNum* H = con->H;
      H[0] = Dm * s[0] * s[0];
      for (int j = 1; j < dim; j++) {
        H[j] = H[j * dim] = -Dm * mu * U[j] / T * s[0] * s[j];
        for (int k = 1; k < dim; k++) {
          mjtNum hu = mu * N * U[j] * U[k] / (T * T * T) + (j == k ? mu * (mu - N / T) : 0);
          H[j * dim + k] = Dm * hu * s[j] * s[k];
        }
      }
    }
  }
  return cost;
}

// forces, states and cost of every row at jar (and the cone Hessians when asked); returns the
// cost
static mjtNum rowsUpdate(mjData* d, const mjtNum* jar, int flg_coneHessian) {
  int nefc = d->nefc;
  const mjtNum* D = d->efc_D;
  mjtNum* force = d->efc_force;
  int* state = d->efc_state;
  mjtNum total = 0;

  for (int i = 0; i < nefc; i++) {
    int type = d->efc_type[i];

    // equality: always quadratic
    if (type == mjCNSTR_EQUALITY) {
      force[i] = -D[i] * jar[i];
      state[i] = mjCNSTRSTATE_QUADRATIC;
      total += 0.5 * D[i] * jar[i] * jar[i];
    }

    // friction loss f: quadratic for |jar| < R f, linear with force -+f beyond (Huber)
    else if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
      mjtNum f = d->efc_frictionloss[i], rf = d->efc_R[i] * f;
      if (jar[i] <= -rf) {
        force[i] = f;
        state[i] = mjCNSTRSTATE_LINEARNEG;
        total += -f * jar[i] - 0.5 * rf * f;
      } else if (jar[i] >= rf) {
        force[i] = -f;
        state[i] = mjCNSTRSTATE_LINEARPOS;
        total += f * jar[i] - 0.5 * rf * f;
      } else {
        force[i] = -D[i] * jar[i];
        state[i] = mjCNSTRSTATE_QUADRATIC;
        total += 0.5 * D[i] * jar[i] * jar[i];
      }
    }

    // elliptic contact: the whole block at its first row
    else if (type == mjCNSTR_CONTACT_ELLIPTIC) {
      mjContact* con = d->contact + d->efc_id[i];
      total += ellipticUpdate(d, con, i, jar, flg_coneHessian);
      i += con->dim - 1;
    }

    // limits, frictionless and pyramidal contacts: one-sided quadratic
    else if (jar[i] < 0) {
      force[i] = -D[i] * jar[i];
      state[i] = mjCNSTRSTATE_QUADRATIC;
      total += 0.5 * D[i] * jar[i] * jar[i];
    } else {
      force[i] = 0;
      state[i] = mjCNSTRSTATE_SATISFIED;
    }
  }

  return total;
}

// forces, states and cost of every row at jar; qfrc_constraint = J' efc_force
void mj_constraintUpdate(const mjModel* m, mjData* d, const mjtNum* jar, mjtNum cost[1],
                         int flg_coneHessian) {
  mjtNum total = rowsUpdate(d, jar, flg_coneHessian);
  if (cost) cost[0] = total;
  mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
}

// ---- statistics -----------------------------------------------------------------------------

// record iteration `iter` (the first mjNSOLVER are kept)
static void saveStats(mjData* d, int iter, mjtNum improvement, mjtNum gradient,
                      mjtNum lineslope, int nactive, int nchange, int neval, int nupdate) {
  if (iter >= mjNSOLVER) return;
  mjSolverStat* s = d->solver + iter;
  s->improvement = improvement;
  s->gradient = gradient;
  s->lineslope = lineslope;
  s->nactive = nactive;
  s->nchange = nchange;
  s->neval = neval;
  s->nupdate = nupdate;
}

// 1 / (meaninertia max(1, nv)): the scale of improvement and gradient
static mjtNum costScale(const mjModel* m) {
  return 1 / (m->stat.meaninertia * (m->nv > 1 ? m->nv : 1));
}

// ---- the Newton Hessian -----------------------------------------------------------------------

// H = M + sum over quadratic rows of D_i J_i' J_i + sum over cone contacts of Jc' Hc Jc and its
// Cholesky factor: dense L L' (nv x nv) when J is dense (nv < 60 under jacobian auto), else
// sparse L' D L in the structure of M and of every row's columns, closed under elimination
// and found once per solve.  Between iterations, rows that become quadratic or stop being so
// are rank-one updates and downdates of the factor with sqrt(D_i) J_i (cone Hessians change
// with the iterate: elliptic cones refactor).
typedef struct {
  int nv, sparse;
  mjtNum* L;    // dense: the factor's lower triangle (nv x nv); sparse: L's values (nL)
  mjtNum* D;    // sparse: the diagonal D (nv)
  int* rownnz;  // sparse: L's rows                               (nv)
  int* rowadr;  //                                                (nv)
  int* colind;  //                                                (nL)
  int* work;    // sparse: scratch of mju_updateLDL, zero between uses (2 nv)
  mjtNum* x;    // a row of an update, zero between uses (nv)
  int* U;       // the union of a block's columns (nv)
  mjtNum* JU;   // the block's rows over U (6 nv)
  mjtNum* KU;   // Hc times those rows (6 nv)
} Hessian;

// the largest column of row r's block: the rows of an elliptic contact are coupled by its
// cone Hessian, so the columns of all of them form one clique; -1 for an empty row
static int blockTop(const mjData* d, const JacRows* J, int r) {
  int first = r, last = r;
  if (d->efc_type[r] == mjCNSTR_CONTACT_ELLIPTIC) {
    while (!ellipticStart(d, first)) first--;
    last = first + d->contact[d->efc_id[r]].dim - 1;
  }
  int top = -1;
  for (int i = first; i <= last; i++) {
    int n = J->rownnz[i], c = n ? J->colind[J->rowadr[i] + n - 1] : -1;
    top = c > top ? c : top;
  }
  return top;
}

// the structure of the sparse L: the explicit lower entries (k, i), k > i, are those of M
// (i an ancestor of k) and of each row (the last column k of its block with each of the
// row's other columns; elimination fills in the rest of the block's clique), grouped by
// column; then the elimination tree by path compression, and each explicit (k, i) puts
// column i in the rows on the tree path from k up to i (counted, then written from each
// row's end, so rows ascend)
static int hessianStructure(const mjModel* m, mjData* d, const JacRows* J, int nefc,
                            Hessian* h) {
  int nv = m->nv;
  int *colptr = mj_stackInt(d, nv + 1), *next = mj_stackInt(d, nv), *parent = mj_stackInt(d, nv);
  int *mark = mj_stackInt(d, nv), *rownnz = mj_stackInt(d, nv), *rowadr = mj_stackInt(d, nv);
  if (!colptr || !next || !parent || !mark || !rownnz || !rowadr) return 0;

  // explicit entries per column, then grouped by column (ent[colptr[i] ..])
  memset(colptr, 0, sizeof(int) * (nv + 1));
  for (int k = 0; k < nv; k++) {
    for (int i = m->dof_parentid[k]; i >= 0; i = m->dof_parentid[i]) colptr[i + 1]++;
  }
  for (int r = 0; r < nefc; r++) {
    const int* c = J->colind + J->rowadr[r];
    int top = blockTop(d, J, r);
    for (int q = 0; q < J->rownnz[r]; q++) colptr[c[q] + 1] += c[q] != top;
  }
  for (int i = 0; i < nv; i++) colptr[i + 1] += colptr[i];
  int* ent = mj_stackInt(d, colptr[nv]);
  if (!ent) return 0;
  memcpy(next, colptr, sizeof(int) * nv);
  for (int k = 0; k < nv; k++) {
    for (int i = m->dof_parentid[k]; i >= 0; i = m->dof_parentid[i]) ent[next[i]++] = k;
  }
  for (int r = 0; r < nefc; r++) {
    const int* c = J->colind + J->rowadr[r];
    int top = blockTop(d, J, r);
    for (int q = 0; q < J->rownnz[r]; q++) {
      if (c[q] != top) ent[next[c[q]]++] = top;
    }
  }

  // elimination tree, columns from the last: next[] serves as the path-compressed ancestors
  for (int i = nv - 1; i >= 0; i--) {
    parent[i] = next[i] = -1;
    for (int e = colptr[i]; e < colptr[i + 1]; e++) {
      for (int j = ent[e], jnext; j > i; j = jnext) {
        jnext = next[j];
        next[j] = i;
        if (jnext < 0) parent[j] = i;
      }
    }
  }

  // row counts, then the rows' columns: pass 0 counts, pass 1 writes from the back
  int* colind = NULL;
  memset(rownnz, 0, sizeof(int) * nv);
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < nv; k++) mark[k] = -1;
    for (int i = nv - 1; i >= 0; i--) {
      mark[i] = i;
      for (int e = colptr[i]; e < colptr[i + 1]; e++) {
        for (int j = ent[e]; mark[j] != i; j = parent[j]) {
          mark[j] = i;
          if (pass) colind[--next[j]] = i;
          else rownnz[j]++;
        }
      }
    }
    if (pass) break;
    int nL = 0;
    for (int k = 0; k < nv; k++) {
      rowadr[k] = nL;
      nL += rownnz[k];
      next[k] = nL;
    }
    colind = mj_stackInt(d, nL);
    h->L = mj_stackAlloc(d, nL ? nL : 1);
    if (!colind || !h->L) return 0;
  }
  h->rownnz = rownnz;
  h->rowadr = rowadr;
  h->colind = colind;
  return 1;
}

// the Hessian's storage (and the sparse structure) on d's stack; 0 when it is too small
static int hessianInit(const mjModel* m, mjData* d, const JacRows* J, int nefc, Hessian* h) {
  int nv = m->nv;
  h->nv = nv;
  h->sparse = mj_isSparse(m);
  h->x = mj_stackAlloc(d, nv);
  h->U = mj_stackInt(d, nv);
  h->JU = mj_stackAlloc(d, 12 * (size_t)nv);
  if (!h->x || !h->U || !h->JU) return 0;
  h->KU = h->JU + 6 * nv;
  mju_zero(h->x, nv);
  if (!h->sparse) {
    h->L = mj_stackAlloc(d, (size_t)nv * nv);
    return h->L != NULL;
  }
  h->D = mj_stackAlloc(d, nv);
  h->work = mj_stackInt(d, 2 * (size_t)nv);
  if (!h->D || !h->work) return 0;
  memset(h->work, 0, sizeof(int) * 2 * nv);
  return hessianStructure(m, d, J, nefc, h);
}

// H(U[x], U[y]) += sum_a JU[a][x] KU[a][y] for y <= x (the block's lower triangle over U):
// dense rows directly, sparse rows by merging their columns with U
static void hessianAddBlock(Hessian* h, const int* U, int n, const mjtNum* JU,
                            const mjtNum* KU, int dim) {
  for (int x = 0; x < n; x++) {
    int k = U[x];
    mjtNum jx[6];
    for (int a = 0; a < dim; a++) jx[a] = JU[a * n + x];
    if (!h->sparse) {
      mjtNum* row = h->L + (size_t)k * h->nv;
      for (int y = 0; y <= x; y++) {
        mjtNum s = 0;
        for (int a = 0; a < dim; a++) s += jx[a] * KU[a * n + y];
        row[U[y]] += s;
      }
      continue;
    }
    const int* c = h->colind + h->rowadr[k];
    mjtNum* l = h->L + h->rowadr[k];
    for (int y = 0, r = 0; y <= x; y++) {
      mjtNum s = 0;
      for (int a = 0; a < dim; a++) s += jx[a] * KU[a * n + y];
      if (y == x) {
        h->D[k] += s;
        break;
      }
      while (c[r] != U[y]) r++;
      l[r++] += s;
    }
  }
}

// the most rows whose Hessian updates run at once (a pyramidal contact of condim 6)
#define HGROUP 10

// H(U[x], U[y]) += sum_r t_r v_r[y], t_r = D_r v_r[x], for y <= x (dense H's lower triangle
// over the columns U) for g <= HGROUP rows of values v_r (the same columns) and weights D_r:
// each entry loaded and stored once, the rows added in order (so it sums as row by row);
// inlined with g constant for the usual runs (one row, a planar or a condim-3 pyramid)
static inline void denseRows(Hessian* h, const int* U, int n, const mjtNum* const* v,
                             const mjtNum* D, int g) {
  for (int x = 0; x < n; x++) {
    mjtNum* row = h->L + (size_t)U[x] * h->nv;
    mjtNum t[HGROUP];
    for (int r = 0; r < g; r++) t[r] = D[r] * v[r][x];
    for (int y = 0; y <= x; y++) {
      mjtNum s = row[U[y]];
      for (int r = 0; r < g; r++) s += t[r] * v[r][y];
      row[U[y]] = s;
    }
  }
}

// H += sum_r D_r J_r' J_r for the g <= HGROUP quadratic rows r from row i, which have the same
// columns, dense H (the run's entries of H move through memory once instead of g times)
static void hessianRowsDense(Hessian* h, const JacRows* J, const mjtNum* D, int i, int g) {
  const mjtNum* v[HGROUP];
  for (int r = 0; r < g; r++) v[r] = J->val + J->rowadr[i + r];
  const int* U = J->colind + J->rowadr[i];
  switch (g) {
  case 1: denseRows(h, U, J->rownnz[i], v, D + i, 1); break;
  case 2: denseRows(h, U, J->rownnz[i], v, D + i, 2); break;
  case 4: denseRows(h, U, J->rownnz[i], v, D + i, 4); break;
  default: denseRows(h, U, J->rownnz[i], v, D + i, g);
  }
}

// H += D_i J_i' J_i for one quadratic row i, sparse H (the common case of hessianBlock, kept
// lean)
static void hessianRow(Hessian* h, const JacRows* J, int i, mjtNum Di) {
  const int* U = J->colind + J->rowadr[i];
  const mjtNum* v = J->val + J->rowadr[i];
  int n = J->rownnz[i];
  for (int x = 0; x < n; x++) {
    int k = U[x];
    mjtNum t = Di * v[x];
    const int* c = h->colind + h->rowadr[k];
    mjtNum* l = h->L + h->rowadr[k];
    h->D[k] += t * v[x];
    for (int y = 0, r = 0; y < x; y++, r++) {
      while (c[r] != U[y]) r++;
      l[r] += t * v[y];
    }
  }
}

// H += Jb' Hb Jb for the dim rows from row i (Hb dim x dim): the union U of their columns,
// the rows over U and Hb times them
static void hessianBlock(Hessian* h, const JacRows* J, int i, int dim, const mjtNum* Hb) {
  const int* U = J->colind + J->rowadr[i];
  int n = J->rownnz[i];
  const mjtNum* JU = J->val + J->rowadr[i];

  // rows with other columns than the first: merge them into h->U, the rows scattered over it
  int same = 1;
  for (int a = 1; a < dim; a++) {
    same &= J->rownnz[i + a] == n && !memcmp(J->colind + J->rowadr[i + a], U, sizeof(int) * n);
  }
  if (!same) {
    int head[6] = {0};
    for (n = 0;; n++) {
      int col = h->nv;
      for (int a = 0; a < dim; a++) {
        if (head[a] < J->rownnz[i + a]) {
          int c = J->colind[J->rowadr[i + a] + head[a]];
          col = c < col ? c : col;
        }
      }
      if (col == h->nv) break;
      h->U[n] = col;
      for (int a = 0; a < dim; a++) {
        head[a] += head[a] < J->rownnz[i + a] && J->colind[J->rowadr[i + a] + head[a]] == col;
      }
    }
    U = h->U;
    for (int a = 0; a < dim; a++) {
      const int* c = J->colind + J->rowadr[i + a];
      const mjtNum* v = J->val + J->rowadr[i + a];
      for (int x = 0, q = 0; x < n; x++) {
        int on = q < J->rownnz[i + a] && c[q] == U[x];
        h->JU[a * n + x] = on ? v[q++] : 0;
      }
    }
    JU = h->JU;
  } else if (dim > 1) {
    for (int a = 0; a < dim; a++) mju_copy(h->JU + a * n, J->val + J->rowadr[i + a], n);
    JU = h->JU;
  }

  // KU = Hb JU
  for (int a = 0; a < dim; a++) {
    for (int x = 0; x < n; x++) {
      mjtNum s = 0;
      for (int b = 0; b < dim; b++) s += Hb[a * dim + b] * JU[b * n + x];
      h->KU[a * n + x] = s;
    }
  }
  hessianAddBlock(h, U, n, JU, h->KU, dim);
}

// H from M and the rows' current states, then factored
static void hessianBuild(const mjModel* m, const mjData* d, const JacRows* J, Hessian* h) {
  int nv = m->nv;

  // M from qM's rows (diagonal, then ancestors from the nearest): dense lower triangle (the
  // upper one is never read), or the sparse rows from their ends
  if (!h->sparse) {
    for (int i = 0; i < nv; i++) {
      const mjtNum* row = d->qM + m->dof_Madr[i];
      mju_zero(h->L + i * nv, i);
      h->L[i * nv + i] = row[0];
      int k = 1;
      for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j]) {
        h->L[i * nv + j] = row[k++];
      }
    }
  } else {
    mju_zero(h->L, h->rowadr[nv - 1] + h->rownnz[nv - 1]);
    for (int i = 0; i < nv; i++) {
      const mjtNum* row = d->qM + m->dof_Madr[i];
      const int* c = h->colind + h->rowadr[i];
      h->D[i] = row[0];
      int k = 1, q = h->rownnz[i] - 1;
      for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j], q--) {
        while (c[q] != j) q--;
        h->L[h->rowadr[i] + q] = row[k++];
      }
    }
  }

  // quadratic rows: D_i J_i' J_i; cone blocks: Jc' Hc Jc
  for (int i = 0; i < d->nefc; i++) {
    const mjContact* con = ellipticStart(d, i);
    if (con && d->efc_state[i] == mjCNSTRSTATE_CONE) {
      hessianBlock(h, J, i, con->dim, con->H);
      i += con->dim - 1;
    } else if (d->efc_state[i] == mjCNSTRSTATE_QUADRATIC && h->sparse) {
      hessianRow(h, J, i, d->efc_D[i]);
    } else if (d->efc_state[i] == mjCNSTRSTATE_QUADRATIC) {
      // dense: the run of quadratic rows with row i's columns (a contact's rows) at once
      int g = 1;
      while (g < HGROUP && i + g < d->nefc && d->efc_state[i + g] == mjCNSTRSTATE_QUADRATIC &&
             sameColumns(J, i + g))
        g++;
      hessianRowsDense(h, J, d->efc_D, i, g);
      i += g - 1;
    }
  }

  if (h->sparse) {
    mju_factorLDL(h->L, h->D, nv, h->rownnz, h->rowadr, h->colind, mjMINVAL);
  } else {
    mju_cholFactor(h->L, nv, mjMINVAL);
  }
}

// the factor after the states changed from oldstate: rank-one updates for the rows that
// became quadratic, then downdates for those that stopped being so; refactored when a
// downdate loses positive definiteness
static void hessianIncremental(const mjModel* m, const mjData* d, const JacRows* J,
                               Hessian* h, const int* oldstate) {
  for (int plus = 1; plus >= 0; plus--) {
    for (int i = 0; i < d->nefc; i++) {
      int now = d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
      if (now != plus || (oldstate[i] == mjCNSTRSTATE_QUADRATIC) == now) continue;

      // x = sqrt(D_i) J_i
      const int* c = J->colind + J->rowadr[i];
      const mjtNum* v = J->val + J->rowadr[i];
      mjtNum s = sqrt(d->efc_D[i]);
      for (int q = 0; q < J->rownnz[i]; q++) h->x[c[q]] = s * v[q];
      int ok;
      if (h->sparse) {
        ok = mju_updateLDL(h->L, h->D, h->x, plus, c, J->rownnz[i], h->nv, h->rownnz,
                           h->rowadr, h->colind, h->work);
      } else {
        ok = mju_cholUpdate(h->L, h->x, h->nv, plus);
        mju_zero(h->x, h->nv);
      }
      if (!ok) {
        hessianBuild(m, d, J, h);
        return;
      }
    }
  }
}

// res = inv(H) vec
static void hessianSolve(const Hessian* h, mjtNum* res, const mjtNum* vec) {
  if (h->sparse) {
    mju_solveLDL(res, h->L, h->D, vec, h->nv, h->rownnz, h->rowadr, h->colind);
  } else {
    mju_cholSolve(res, h->L, vec, h->nv);
  }
}

// ---- primal solvers: CG and Newton -------------------------------------------------------------

// the state of a primal solve: the iterate's products and the search direction
typedef struct {
  const mjModel* m;
  mjData* d;
  int nv, nefc, newton;
  mjtNum scale;       // costScale
  mjtNum cost;        // total cost at qacc
  JacRows J;          // the constraint Jacobian's rows
  Hessian H;          // the Hessian and its factor (Newton)
  mjtNum* Ma;         // M qacc                                 (nv)
  mjtNum* Jaref;      // J qacc - aref                          (nefc)
  mjtNum* grad;       // Ma - qfrc_smooth - qfrc_constraint     (nv)
  mjtNum* Mgrad;      // inv(M) grad (CG) or inv(H) grad        (nv)
  mjtNum* search;     // search direction                       (nv)
  mjtNum* Mv;         // M search                               (nv)
  mjtNum* Jv;         // J search                               (nefc)
  mjtNum* row;        // scratch                                (nv)
  int* oldstate;      // states before the last update          (nefc)
  mjtNum gauss[3];    // Gauss cost along the line: g0 + g1 a + g2 a^2
  int nchange;        // state changes in the last update
  int neval;          // cost evaluations of the last line search
} Primal;

// one point of the line search: step alpha, cost and its first two derivatives in alpha
typedef struct {
  mjtNum alpha, cost, d1, d2;
} LinePoint;

// number of rows not satisfied
static int activeCount(const mjData* d) {
  int n = 0;
  for (int i = 0; i < d->nefc; i++) n += d->efc_state[i] != mjCNSTRSTATE_SATISFIED;
  return n;
}

// constraint forces, states and cost at the iterate, qfrc_constraint = J' efc_force, the
// total cost and its gradient
static void primalUpdate(Primal* p) {
  const mjModel* m = p->m;
  mjData* d = p->d;
  int nv = p->nv;
  memcpy(p->oldstate, d->efc_state, sizeof(int) * p->nefc);
  mjtNum cost = rowsUpdate(d, p->Jaref, p->newton && m->opt.cone == mjCONE_ELLIPTIC);
  jacTVec(&p->J, p->nefc, nv, d->qfrc_constraint, d->efc_force);
  p->nchange = 0;
  for (int i = 0; i < p->nefc; i++) p->nchange += p->oldstate[i] != d->efc_state[i];

  // Gauss: 0.5 (Ma - qfrc_smooth)' (qacc - qacc_smooth); grad = Ma - qfrc_smooth - qfrc_constraint
  mjtNum gauss = 0;
  for (int i = 0; i < nv; i++) {
    mjtNum r = p->Ma[i] - d->qfrc_smooth[i];
    gauss += 0.5 * r * (d->qacc[i] - d->qacc_smooth[i]);
    p->grad[i] = r - d->qfrc_constraint[i];
  }
  p->cost = gauss + cost;
}

// the preconditioned gradient: inv(M) grad for CG; inv(H) grad for Newton, with H factored
// anew (first) or updated from the states before the last update (pyramidal cones; elliptic
// cones refactor, their Hessians having moved)
static void precondition(Primal* p, int first) {
  const mjModel* m = p->m;
  mjData* d = p->d;
  if (!p->newton) {
    mj_solveM(m, d, p->Mgrad, p->grad, 1);
    return;
  }
  if (first || m->opt.cone == mjCONE_ELLIPTIC) {
    hessianBuild(m, d, &p->J, &p->H);
  } else if (p->nchange) {
    hessianIncremental(m, d, &p->J, &p->H, p->oldstate);
  }
  hessianSolve(&p->H, p->Mgrad, p->grad);
}

// cost and derivatives at step alpha along the search direction
static void lineEval(Primal* p, LinePoint* pt) {
  const mjData* d = p->d;
  mjtNum a = pt->alpha;
  mjtNum cost = p->gauss[0] + a * (p->gauss[1] + a * p->gauss[2]);
  mjtNum d1 = p->gauss[1] + 2 * a * p->gauss[2], d2 = 2 * p->gauss[2];

  for (int i = 0; i < p->nefc; i++) {
    int type = d->efc_type[i];
    mjtNum jv = p->Jv[i], jar = p->Jaref[i] + a * jv, D = d->efc_D[i];

    // elliptic block: zones as in ellipticUpdate, along U(a) = s .* (Jaref + a Jv)
    if (type == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      int dim = con->dim;
      mjtNum mu = con->mu, s[6], U[6] = {0}, V[6] = {0};
      coneScale(con, s);
      for (int j = 0; j < dim; j++) {
        U[j] = s[j] * (p->Jaref[i + j] + a * p->Jv[i + j]);
        V[j] = s[j] * p->Jv[i + j];
      }
      mjtNum N = U[0], T = mju_norm(U + 1, dim - 1);
      if (mu * N + T <= 0) {
        for (int j = 0; j < dim; j++) {
          mjtNum x = p->Jaref[i + j] + a * p->Jv[i + j], Dj = d->efc_D[i + j];
          cost += 0.5 * Dj * x * x;
          d1 += Dj * x * p->Jv[i + j];
          d2 += Dj * p->Jv[i + j] * p->Jv[i + j];
        }
      } else if (N < mu * T) {
        // T' = U.V / T, T'' = (|V|^2 - T'^2) / T on the friction part
        mjtNum Dm = D / (mu * mu * (1 + mu * mu)), NmT = N - mu * T;
        mjtNum dT = mju_dot(U + 1, V + 1, dim - 1) / T;
        mjtNum d2T = (mju_dot(V + 1, V + 1, dim - 1) - dT * dT) / T;
        mjtNum dNmT = V[0] - mu * dT;
        cost += 0.5 * Dm * NmT * NmT;
        d1 += Dm * NmT * dNmT;
        d2 += Dm * (dNmT * dNmT - NmT * mu * d2T);
      }
      i += dim - 1;
      continue;
    }

    // friction loss: linear beyond R f
    if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
      mjtNum f = d->efc_frictionloss[i], rf = d->efc_R[i] * f;
      if (jar <= -rf) {
        cost += -f * jar - 0.5 * rf * f;
        d1 += -f * jv;
        continue;
      }
      if (jar >= rf) {
        cost += f * jar - 0.5 * rf * f;
        d1 += f * jv;
        continue;
      }
    }

    // quadratic: equality, friction in its middle, active one-sided rows
    else if (type != mjCNSTR_EQUALITY && jar >= 0) {
      continue;
    }
    cost += 0.5 * D * jar * jar;
    d1 += D * jar * jv;
    d2 += D * jv * jv;
  }
  pt->cost = cost;
  pt->d1 = d1;
  pt->d2 = d2;
  p->neval++;
}

// the point a Newton step from pt reaches, evaluated
static LinePoint lineNewton(Primal* p, const LinePoint* pt) {
  LinePoint q = {pt->d2 > 0 ? pt->alpha - pt->d1 / pt->d2 : pt->alpha, 0, 0, 0};
  lineEval(p, &q);
  return q;
}

// end e of a bracket moved to each candidate in turn whose slope has e's sign and is nearer
// zero (inside the bracket, the cost being convex); 1 when it moved
static int lineMove(LinePoint* e, const LinePoint c[3]) {
  int moved = 0;
  for (int k = 0; k < 3; k++) {
    if ((e->d1 < 0 && c[k].d1 < 0 && e->d1 < c[k].d1) ||
        (e->d1 > 0 && c[k].d1 > 0 && e->d1 > c[k].d1)) {
      *e = c[k];
      moved = 1;
    }
  }
  return moved;
}

// exact line search along p->search: the step minimizing the cost, found by 1-D Newton steps
// until |d cost / d alpha| < gtol = tolerance ls_tolerance |search| / scale at a point that
// improves on alpha = 0 (MuJoCo 3.11 on); first one-sided from 0 while the derivative stays
// below -gtol (in the search's sense), then inside the bracket from the Newton steps of both
// ends and the midpoint (the midpoint itself when the bracket no longer shrinks, the better
// end when the evaluations run out and it improves, else 0); returns the step, with
// *improve = cost(0) - cost
static mjtNum lineSearch(Primal* p, mjtNum* slope, mjtNum* improve) {
  const mjModel* m = p->m;
  mjData* d = p->d;
  int nv = p->nv, maxeval = m->opt.ls_iterations;
  p->neval = 0;
  *slope = *improve = 0;
  mjtNum snorm = mju_norm(p->search, nv);
  if (snorm < mjMINVAL) return 0;
  mjtNum gtol = m->opt.tolerance * m->opt.ls_tolerance * snorm / p->scale;

  // products along the line and the Gauss cost as a quadratic in alpha
  mj_mulM(m, d, p->Mv, p->search);
  jacVec(&p->J, p->nefc, p->Jv, p->search);
  mjtNum g0 = 0, g1 = 0;
  for (int i = 0; i < nv; i++) {
    mjtNum r = p->Ma[i] - d->qfrc_smooth[i];
    g0 += 0.5 * r * (d->qacc[i] - d->qacc_smooth[i]);
    g1 += p->search[i] * r;
  }
  p->gauss[0] = g0;
  p->gauss[1] = g1;
  p->gauss[2] = 0.5 * mju_dot(p->search, p->Mv, nv);

  // the start and one Newton step from it
  LinePoint p0 = {0, 0, 0, 0};
  lineEval(p, &p0);
  LinePoint p1 = lineNewton(p, &p0), best;
  if (fabs(p1.d1) < gtol && (p1.alpha == 0 || p1.cost < p0.cost)) {
    best = p1;
    goto done;
  }

  // one-sided: Newton steps while the derivative stays below -gtol in p1's sense
  int dir = p1.d1 < 0 ? 1 : -1;
  LinePoint prev = p0;
  while (p->neval < maxeval && dir * p1.d1 <= -gtol) {
    prev = p1;
    p1 = lineNewton(p, &p1);
    if (fabs(p1.d1) < gtol && p1.cost < p0.cost) {
      best = p1;
      goto done;
    }
  }
  if (p->neval >= maxeval) {
    best = p1;
    goto done;
  }

  // bracketed between the last point (far) and the one before it (near), evaluations counted
  // as MuJoCo counts them: each end carries its Newton point, the near end's being the far end
  // itself (its Newton step) and the far end's evaluated once here; a round evaluates the
  // midpoint and ends at the best converged of {far's Newton point, near's, the midpoint}, else
  // moves each end to the candidates of its sign whose slope is nearer zero (lineMove) and
  // evaluates the Newton point of an end that moved; when neither moves, the midpoint
  LinePoint far = p1, near = prev, farNext = lineNewton(p, &p1), nearNext = p1;
  while (p->neval < maxeval) {
    LinePoint mid = {0.5 * (far.alpha + near.alpha), 0, 0, 0};
    lineEval(p, &mid);
    LinePoint c[3] = {farNext, nearNext, mid};
    int conv = -1;
    for (int k = 0; k < 3; k++) {
      if (fabs(c[k].d1) < gtol && (conv < 0 || c[k].cost < c[conv].cost)) conv = k;
    }
    if (conv >= 0) {
      best = c[conv];
      goto done;
    }
    int movedFar = lineMove(&far, c), movedNear = lineMove(&near, c);
    if (movedFar) farNext = lineNewton(p, &far);
    if (movedNear) nearNext = lineNewton(p, &near);
    if (!movedFar && !movedNear) {
      best = mid;
      goto done;
    }
  }

  // out of evaluations: the better end when it improves on alpha = 0 (at tolerance 0, MuJoCo's
  // request for an exact solve, every search ends here), else no step, as MuJoCo: a bracket
  // whose ends both cost more than the start (ls_iterations too few to shrink it) gives
  // alpha = 0 and stops the solve, where taking the better end would move uphill
  best = far.cost <= near.cost ? far : near;
  if (!(best.cost < p0.cost)) return 0;

done:
  *slope = p->scale * fabs(best.d1) / snorm;
  *improve = p0.cost - best.cost;
  return best.alpha;
}

// 0.5 scale grad' Mgrad, at least 0: with Mgrad = inv(M) grad the duality gap bounding the
// cost's distance from its minimum; with inv(H) grad the Newton decrement
static mjtNum predicted(const Primal* p) {
  return fmax(0, 0.5 * p->scale * mju_dot(p->grad, p->Mgrad, p->nv));
}

// CG (newton = 0) or Newton (newton = 1) from qacc, as MuJoCo 3.11 on: no iteration when the
// start is certified (duality gap under tolerance; Newton also the gradient, then after
// factoring the Newton decrement with it); then iterate until the scaled improvement (when
// positive), the gradient or Newton's decrement falls below tolerance, maxiter iterations,
// or the line search finds no step
static void solPrimal(const mjModel* m, mjData* d, int maxiter, int newton, mjtNum scale) {
  int nv = m->nv, nefc = d->nefc;
  size_t mark = mj_markStack(d);
  Primal p = {.m = m, .d = d, .nv = nv, .nefc = nefc, .newton = newton, .scale = scale};
  mjtNum* buf = mj_stackAlloc(d, 8 * (size_t)nv + 2 * (size_t)nefc + (size_t)(nefc + 1) / 2);
  d->solver_niter = 0;
  if (!buf || !jacRows(m, d, &p.J) || (newton && !hessianInit(m, d, &p.J, nefc, &p.H))) {
    mj_warning(d, mjWARN_CNSTRFULL, nefc);
    mju_copy(d->qacc, d->qacc_smooth, nv);
    mj_freeStack(d, mark);
    return;
  }
  p.Ma = buf;
  p.grad = p.Ma + nv;
  p.Mgrad = p.grad + nv;
  p.search = p.Mgrad + nv;
  p.Mv = p.search + nv;
  p.row = p.Mv + nv;
  mjtNum* oldMgrad = p.row + nv;
  mjtNum* oldgrad = oldMgrad + nv;
  p.Jaref = oldgrad + nv;
  p.Jv = p.Jaref + nefc;
  p.oldstate = (int*)(p.Jv + nefc);

  // the start: Ma, Jaref, forces, cost, gradient, and its certificate inv(M) grad
  mj_mulM(m, d, p.Ma, d->qacc);
  jacVec(&p.J, nefc, p.Jaref, d->qacc);
  mju_subFrom(p.Jaref, d->efc_aref, nefc);
  for (int i = 0; i < nefc; i++) d->efc_state[i] = -1;
  primalUpdate(&p);
  mj_solveM(m, d, p.Mgrad, p.grad, 1);
  mjtNum tol = m->opt.tolerance;
  int small = p.scale * mju_norm(p.grad, nv) < tol;
  int done = predicted(&p) < tol && (!newton || small);
  if (!done && newton) {
    precondition(&p, 1);
    done = small && predicted(&p) < tol;
  }
  mju_scl(p.search, p.Mgrad, -1, nv);

  for (int iter = 0; iter < maxiter && !done; iter++) {
    // line search, then move: qacc += alpha search, Ma += alpha Mv, Jaref += alpha Jv
    mjtNum slope, improve, alpha = lineSearch(&p, &slope, &improve);
    if (alpha == 0) break;
    mju_addToScl(d->qacc, p.search, alpha, nv);
    mju_addToScl(p.Ma, p.Mv, alpha, nv);
    mju_addToScl(p.Jaref, p.Jv, alpha, nefc);

    // update forces, cost, gradient and the preconditioned gradient
    mju_copy(oldgrad, p.grad, nv);
    mju_copy(oldMgrad, p.Mgrad, nv);
    primalUpdate(&p);
    precondition(&p, 0);

    // statistics and the stopping test
    mjtNum improvement = p.scale * improve;
    mjtNum gradient = p.scale * mju_norm(p.grad, nv);
    saveStats(d, iter, improvement, gradient, slope, activeCount(d), p.nchange, p.neval,
              newton ? p.nchange : 0);
    d->solver_niter = iter + 1;
    if ((improvement > 0 && improvement < tol) || gradient < tol ||
        (newton && predicted(&p) < tol))
      break;

    // next direction: Newton -inv(H) grad; CG Hager-Zhang with y = grad - oldgrad, d the
    // search: beta = max(-1 / (|d| min(0.01, |grad|)), (y'Mgrad - 2 (y'My / d'y) d'grad) / d'y),
    // 0 (steepest descent) when d'y < mjMINVAL
    if (newton) {
      mju_scl(p.search, p.Mgrad, -1, nv);
      continue;
    }
    mjtNum* y = p.row;
    mju_sub(y, p.grad, oldgrad, nv);
    mju_sub(oldMgrad, p.Mgrad, oldMgrad, nv);
    mjtNum dy = mju_dot(p.search, y, nv), beta = 0;
    if (dy >= mjMINVAL) {
      mjtNum yMy = mju_dot(y, oldMgrad, nv), yMg = mju_dot(y, p.Mgrad, nv);
      mjtNum dg = mju_dot(p.search, p.grad, nv);
      mjtNum hz = (yMg - 2 * (yMy / dy) * dg) / dy;
      mjtNum eta = -1 / fmax(mjMINVAL, mju_norm(p.search, nv) *
                                           fmin(0.01, mju_norm(p.grad, nv)));
      beta = fmax(eta, hz);
    }
    for (int i = 0; i < nv; i++) p.search[i] = -p.Mgrad[i] + beta * p.search[i];
  }
  mj_freeStack(d, mark);
}

// CG on the primal problem from qacc
void mj_solCG(const mjModel* m, mjData* d, int maxiter) {
  solPrimal(m, d, maxiter, 0, costScale(m));
}

// Newton on the primal problem from qacc
void mj_solNewton(const mjModel* m, mjData* d, int maxiter) {
  solPrimal(m, d, maxiter, 1, costScale(m));
}

// ---- the dual problem (PGS, noslip) ------------------------------------------------------------

// The dual 0.5 f'A f + f'b with A = J inv(M) J' + diag(R) = W'W + diag(R), W = D^-1/2 inv(L') J'
// from the factor M = L' D L (qLD): column i of W is non-zero only on the dofs of row i's
// kinematic chains (its Jacobian's columns and their ancestors), so W is kept by sparse columns,
// found by half a solve each.  The residual (A f + b)_i = w_i'z + R_i f_i + b_i then takes
// O(chain) with z = W f kept up to date as forces change, instead of a row of the dense A, and
// A itself is only formed in the diagonal blocks the updates need.
typedef struct {
  int* wnnz;     // non-zeros of W's column i                           (nefc)
  int** wind;    // their dofs, descending (one list for neighbors alike) (nefc)
  int* wsame;    // column i has the dofs of column i - 1                (nefc)
  int* wadr;     // the start of its values in wval                     (nefc)
  mjtNum* wval;  // the values
  int* qadr;     // a shared block's rows four at a time, interleaved: row i + 4k + c's value of
                 // dof t at wquad[qadr[i] + 4 (k n + t) + c] for the block at row i   (nefc)
  mjtNum* wquad; // the interleaved values
  int* bofs;     // row i of its block of A at blk + bofs[i]             (nefc)
  int* bsize;    // the rows of the block starting at row i (dualBlock)  (nefc)
  int* bshared;  // the rows of the block at row i share W's dofs        (nefc)
  mjtNum* blk;   // the diagonal blocks, each dense and row-major
  mjtNum* Ainv;  // 1 / A(i, i)                                         (nefc)
  mjtNum* z;     // W f                                                  (nv)
  mjtNum* zmove; // the change of z in a block's dofs (blockMove)        (nv)
  int flg_R;     // A includes diag(R) (PGS) or not (noslip)
} Dual;

// the most rows whose half solves run side by side (a pyramidal contact of condim 6; even, for
// the pairs of rows of the half solves)
#define GROUP 10

// the number of rows of the block starting at row i: a contact's rows, elliptic or pyramidal
// (updated together: their residuals at once, then each row with the block's A), else the
// row alone
static int dualBlock(const mjData* d, int i) {
  int type = d->efc_type[i];
  if (type != mjCNSTR_CONTACT_ELLIPTIC && type != mjCNSTR_CONTACT_PYRAMIDAL) return 1;
  int dim = d->contact[d->efc_id[i]].dim;
  return type == mjCNSTR_CONTACT_ELLIPTIC ? dim : 2 * (dim - 1);
}

// the dofs of the chains of the columns cols[0..n) (ascending): the columns and all their
// ancestors, into list in descending order; returns how many; mark (nv) is zero on entry and
// on return.  The last column's chain first, the columns met on it ticked off: when it holds
// them all (one chain, as a contact with the world), that is the list; else the chains are
// marked, then read off from the last column down (a dof's ancestors have lower indices)
static int chainDofs(const mjModel* m, const int* cols, int n, int* mark, int* list) {
  int cnt = 0, left = n - 1;
  for (int j = n ? cols[n - 1] : -1; j >= 0; j = m->dof_parentid[j]) {
    list[cnt++] = j;
    left -= left >= 0 && cols[left] == j;
  }
  if (left < 0) return cnt;
  for (int k = n - 1; k >= 0; k--) {
    for (int j = cols[k]; j >= 0 && !mark[j]; j = m->dof_parentid[j]) mark[j] = 1;
  }
  cnt = 0;
  for (int j = cols[n - 1]; j >= 0; j--) {
    list[cnt] = j;
    cnt += mark[j];
    mark[j] = 0;
  }
  return cnt;
}

// row i's force has changed by delta: z += w_i delta, two dofs a pass
static void dualMove(Dual* q, int i, mjtNum delta) {
  if (delta == 0) return;
  const int* ind = q->wind[i];
  const mjtNum* val = q->wval + q->wadr[i];
  int n = q->wnnz[i], t = 0;
  for (; t + 2 <= n; t += 2) {
    q->z[ind[t]] += val[t] * delta;
    q->z[ind[t + 1]] += val[t + 1] * delta;
  }
  if (t < n) q->z[ind[t]] += val[t] * delta;
}

// the forces of the nb rows from row i have changed by delta: dualMove row by row
static void rowsMove(Dual* q, int i, int nb, const mjtNum* delta) {
  for (int r = 0; r < nb; r++) dualMove(q, i + r, delta[r]);
}

// the forces of all rows have changed from old to f (old NULL: from zero): z += W (f - old)
// as dualMove row by row, but a condim-3 pyramid whose four forces all moved in one pass over
// its interleaved values (wquad), each dof's z loaded and stored once and its four additions
// in the rows' order, so z is the same to the bit
static void dualMoveAll(Dual* q, int nefc, const mjtNum* f, const mjtNum* old) {
  for (int i = 0, nb; i < nefc; i += nb) {
    nb = q->bsize[i];
    mjtNum dl[GROUP];
    int four = nb == 4 && q->bshared[i];
    for (int r = 0; r < nb; r++) {
      dl[r] = old ? f[i + r] - old[i + r] : f[i + r];
      four &= dl[r] != 0;
    }
    if (!four) {
      rowsMove(q, i, nb, dl);
      continue;
    }
    const int* ind = q->wind[i];
    const mjtNum* v = q->wquad + q->qadr[i];
    for (int t = 0, n = q->wnnz[i]; t < n; t++, v += 4) {
      mjtNum zt = q->z[ind[t]] + v[0] * dl[0];
      zt += v[1] * dl[1];
      zt += v[2] * dl[2];
      q->z[ind[t]] = zt + v[3] * dl[3];
    }
  }
}

// the dofs ind (n, descending) are one chain from a leaf to a root with full rows of qLD (row
// starts in start): each dof's parent is the next, and row ind[t] holds its n - 1 - t
// ancestors and the diagonal, so that ind[t]'s entry in the row of a descendant is at n - 1 - t
static int isChain(const mjModel* m, const int* start, const int* ind, int n) {
  for (int t = 0; t < n; t++) {
    int k = ind[t];
    if (start[k + 1] - start[k] != n - t) return 0;
    if (t + 1 < n && m->dof_parentid[k] != ind[t + 1]) return 0;
  }
  return 1;
}

// x = inv(L') x for four rows side by side in x (x[k GROUP + r]; a group's unused rows zero)
// over the dofs of a chain ind (isChain): the pushes of dualInit's solve pulled instead, each
// dof's four values summed in registers, x(a, :) -= L(k, a) x(k, :) for its descendants k
// from the leaf (the same operations in the same order: a dof's updates come from its
// descendants in ind's order); xr and lr (n each) take the dofs' rows of x and the ends of
// their rows of qLD
static void chainSolve(const mjtNum* qLD, const int* start, const int* ind, int n, mjtNum* x,
                       mjtNum** xr, const mjtNum** lr) {
  for (int t = 0; t < n; t++) {
    xr[t] = x + ind[t] * GROUP;
    lr[t] = qLD + start[ind[t]] + n - 1;
  }
  for (int t = 1; t < n; t++) {
    mjtNum* xa = xr[t];
    mjtNum a0 = xa[0], a1 = xa[1], a2 = xa[2], a3 = xa[3];
    for (int s = 0; s < t; s++) {
      const mjtNum *xk = xr[s], l = lr[s][-t];
      a0 -= l * xk[0];
      a1 -= l * xk[1];
      a2 -= l * xk[2];
      a3 -= l * xk[3];
    }
    xa[0] = a0;
    xa[1] = a1;
    xa[2] = a2;
    xa[3] = a3;
  }
}

// W's columns, the diagonal blocks of A (with R when flg_R) and z = W f for the current forces,
// on d's stack; 0 when the stack is too small
static int dualInit(const mjModel* m, mjData* d, Dual* q, int flg_R) {
  int nv = m->nv, nefc = d->nefc;
  JacRows J;
  int *start = mj_stackInt(d, nv + 1), *mark = mj_stackInt(d, nv), *list = mj_stackInt(d, nv);
  mjtNum *x = mj_stackAlloc(d, (size_t)GROUP * nv), *sd = mj_stackAlloc(d, nv);
  mjtNum** xr = (mjtNum**)mj_stackAlloc(d, nv);
  const mjtNum** lr = (const mjtNum**)mj_stackAlloc(d, nv);
  q->wnnz = mj_stackInt(d, nefc);
  q->wind = (int**)mj_stackAlloc(d, nefc);
  q->wadr = mj_stackInt(d, nefc);
  q->wsame = mj_stackInt(d, nefc);
  q->bofs = mj_stackInt(d, nefc);
  q->bsize = mj_stackInt(d, nefc);
  q->bshared = mj_stackInt(d, nefc);
  q->qadr = mj_stackInt(d, nefc);
  q->z = mj_stackAlloc(d, nv);
  q->zmove = mj_stackAlloc(d, nv);
  q->Ainv = mj_stackAlloc(d, nefc);
  q->flg_R = flg_R;
  if (!start || !mark || !list || !x || !sd || !xr || !lr || !q->wnnz || !q->wind || !q->wadr ||
      !q->wsame || !q->bofs || !q->bsize || !q->bshared || !q->qadr || !q->z ||
      !q->zmove || !q->Ainv ||
      !jacRows(m, d, &J)) {
    return 0;
  }

  // qLD's row starts (a simple dof keeps only its diagonal; the off-diagonal entries are the
  // dof's ancestors, ascending, the diagonal last) and D^-1/2
  start[0] = 0;
  for (int k = 0; k < nv; k++) {
    int len = (k + 1 < nv ? m->dof_Madr[k + 1] : m->nM) - m->dof_Madr[k];
    start[k + 1] = start[k] + (m->dof_simplenum[k] ? 1 : len);
    sd[k] = sqrt(d->qLDiagInv[k]);
  }
  memset(mark, 0, sizeof(int) * nv);
  mju_zero(x, GROUP * nv);

  // the dofs of each column of W (a list shared with the previous column when they are the
  // same, else on d's stack) and the sizes of the columns and of the diagonal blocks
  int total = 0, nblk = 0, nquad = 0;
  for (int i = 0; i < nefc; i++) {
    int n = i ? q->wnnz[i - 1] : 0;
    q->wsame[i] = sameColumns(&J, i);
    if (!q->wsame[i]) {
      n = chainDofs(m, J.colind + J.rowadr[i], J.rownnz[i], mark, list);
      q->wsame[i] = i && n == q->wnnz[i - 1] && !memcmp(list, q->wind[i - 1], sizeof(int) * n);
    }
    if (q->wsame[i]) {
      q->wind[i] = q->wind[i - 1];
    } else if ((q->wind[i] = mj_stackInt(d, n))) {
      memcpy(q->wind[i], list, sizeof(int) * n);
    } else {
      return 0;
    }
    q->wnnz[i] = n;
    q->wadr[i] = total;
    total += n;
  }
  for (int i = 0, nb; i < nefc; i += nb) {
    nb = q->bsize[i] = dualBlock(d, i);
    q->bshared[i] = nb > 1;
    for (int a = 0; a < nb; a++) {
      q->bofs[i + a] = nblk + a * nb;
      q->bshared[i] &= !a || q->wsame[i + a];
    }
    nblk += nb * nb;
    q->qadr[i] = nquad;
    nquad += q->bshared[i] ? (nb - nb % 4) * q->wnnz[i] : 0;
  }
  q->wval = mj_stackAlloc(d, total);
  q->wquad = mj_stackAlloc(d, nquad);
  q->blk = mj_stackAlloc(d, nblk);
  if ((total && !q->wval) || (nquad && !q->wquad) || !q->blk) return 0;

  // each group of up to GROUP rows with the same dofs (a contact's rows): w = D^-1/2
  // inv(L') J_i' over their chains, from the leaves (a dof is final once its descendants have
  // pushed into it; it pushes into its ancestors a, x(a, :) -= L(k, a) x(k, :) with row k of
  // qLD walked from the parent's entry, its last, up the tree; pulled by chainSolve for up to
  // four rows on one chain); the group's rows side by side in x (x[k GROUP + r]), so that
  // their chains of updates overlap, updated in pairs of rows, or all four of chainSolve's
  // (vector code; padding rows stay zero, being updated from zeros, and are cleared with the
  // others, so that a NaN in qLD cannot reach a later group through them)
  for (int i = 0, g; i < nefc; i += g) {
    const int* ind = q->wind[i];
    int n = q->wnnz[i];
    for (g = 1; i + g < nefc && g < GROUP && q->wsame[i + g]; g++) {}
    for (int r = 0; r < g; r++) {
      const int* c = J.colind + J.rowadr[i + r];
      const mjtNum* v = J.val + J.rowadr[i + r];
      for (int k = 0; k < J.rownnz[i + r]; k++) x[c[k] * GROUP + r] = v[k];
    }
    int chain = g <= 4 && isChain(m, start, ind, n), pad = chain ? 4 : g + g % 2;
    if (chain) {
      chainSolve(d->qLD, start, ind, n, x, xr, lr);
    } else {
      for (int t = 0; t < n; t++) {
        int k = ind[t];
        const mjtNum *xk = x + k * GROUP, *lk = d->qLD + start[k];
        for (int a = m->dof_parentid[k], p = start[k + 1] - start[k] - 2; p >= 0; p--) {
          mjtNum *xa = x + a * GROUP, l = lk[p];
          for (int r = 0; r < g; r += 2) {
            xa[r] -= l * xk[r];
            xa[r + 1] -= l * xk[r + 1];
          }
          a = m->dof_parentid[a];
        }
      }
    }
    for (int r = 0; r < g; r++) {
      mjtNum* val = q->wval + q->wadr[i] + r * n;
      for (int t = 0; t < n; t++) {
        val[t] = x[ind[t] * GROUP + r] * sd[ind[t]];
        x[ind[t] * GROUP + r] = 0;
      }
    }
    for (int r = g; r < pad; r++) {
      for (int t = 0; t < n; t++) x[ind[t] * GROUP + r] = 0;
    }
  }

  // the blocks: A(a, c) = w_a'w_c (+ R_a on the diagonal), w_a scattered into x unless the
  // block's rows share their dofs (then the values pair up directly; a block of four, a
  // condim-3 pyramid, in one pass over its interleaved values, AQ(a, c) for c <= a packed at
  // a (a + 1) / 2 + c: ten sums, whose clearing gcc emits as stores, where a 16-wide one became
  // a slow rep stos); 1 / A(a, a); a shared block's rows four at a time interleaved
  for (int i = 0, nb; i < nefc; i += nb) {
    nb = q->bsize[i];
    int shared = q->bshared[i] || nb == 1, four = q->bshared[i] && nb == 4;
    for (int r = 0, n = q->wnnz[i]; q->bshared[i] && r + 4 <= nb; r += 4) {
      mjtNum* quad = q->wquad + q->qadr[i] + r * n;
      const mjtNum* v = q->wval + q->wadr[i + r];
      for (int t = 0; t < n; t++) {
        for (int c = 0; c < 4; c++) quad[4 * t + c] = v[c * n + t];
      }
    }
    mjtNum AQ[10] = {0};
    for (int t = 0, n = q->wnnz[i]; four && t < n; t++) {
      const mjtNum* w = q->wquad + q->qadr[i] + 4 * t;
      for (int a = 0; a < 4; a++) {
        for (int c = 0; c <= a; c++) AQ[a * (a + 1) / 2 + c] += w[c] * w[a];
      }
    }
    for (int a = i; a < i + nb; a++) {
      const int* ia = q->wind[a];
      const mjtNum* va = q->wval + q->wadr[a];
      for (int t = 0; t < q->wnnz[a] && !shared; t++) x[ia[t]] = va[t];
      for (int c = i; c <= a; c++) {
        const int* ic = q->wind[c];
        const mjtNum* vc = q->wval + q->wadr[c];
        mjtNum s = 0;
        if (four) {
          s = AQ[(a - i) * (a - i + 1) / 2 + c - i];
        } else if (shared) {
          for (int t = 0; t < q->wnnz[c]; t++) s += vc[t] * va[t];
        } else {
          for (int t = 0; t < q->wnnz[c]; t++) s += vc[t] * x[ic[t]];
        }
        q->blk[q->bofs[a] + c - i] = q->blk[q->bofs[c] + a - i] = s;
      }
      q->blk[q->bofs[a] + a - i] += flg_R ? d->efc_R[a] : 0;
      q->Ainv[a] = 1 / q->blk[q->bofs[a] + a - i];
      for (int t = 0; t < q->wnnz[a] && !shared; t++) x[ia[t]] = 0;
    }
  }

  // z = W f, row by row
  mju_zero(q->z, nv);
  dualMoveAll(q, nefc, d->efc_force, NULL);
  return 1;
}

// (A f + b)_i = w_i'z + b_i (+ R_i f_i with the regularizer), in four partial sums (short
// chains of additions: each row of a sweep waits for the previous row's update)
static mjtNum dualResidual(const Dual* q, const mjData* d, int i) {
  const int* ind = q->wind[i];
  const mjtNum* val = q->wval + q->wadr[i];
  const mjtNum* z = q->z;
  int n = q->wnnz[i], t = 0;
  mjtNum s0 = d->efc_b[i] + (q->flg_R ? d->efc_R[i] * d->efc_force[i] : 0), s1 = 0, s2 = 0, s3 = 0;
  for (; t + 4 <= n; t += 4) {
    s0 += val[t] * z[ind[t]];
    s1 += val[t + 1] * z[ind[t + 1]];
    s2 += val[t + 2] * z[ind[t + 2]];
    s3 += val[t + 3] * z[ind[t + 3]];
  }
  for (; t < n; t++) s0 += val[t] * z[ind[t]];
  return (s0 + s1) + (s2 + s3);
}

// res = (A f + b) of the nb rows from row i; rows with the same dofs four at a time in one
// pass over the dofs (four sums in registers, each in the dofs' order, from the interleaved
// values: a vector's worth of sums per load), the others one by one
static void blockResidual(const Dual* q, const mjData* d, int i, int nb, mjtNum* res) {
  int r = 0;
  if (nb >= 4 && q->bshared[i]) {
    int n = q->wnnz[i];
    const int* ind = q->wind[i];
    for (; r + 4 <= nb; r += 4) {
      const mjtNum* v = q->wquad + q->qadr[i] + r * n;
      mjtNum s[4] = {0, 0, 0, 0};
      for (int t = 0; t < n; t++) {
        mjtNum zt = q->z[ind[t]];
        for (int c = 0; c < 4; c++) s[c] += v[4 * t + c] * zt;
      }
      for (int k = 0; k < 4; k++) {
        int a = i + r + k;
        res[r + k] = d->efc_b[a] + (q->flg_R ? d->efc_R[a] * d->efc_force[a] : 0) + s[k];
      }
    }
  }
  for (; r < nb; r++) res[r] = dualResidual(q, d, i + r);
}

// s = sum_r w_r delta_r over nb rows of n values each, row by row in val: each sum in the rows'
// order, vector code across the dofs when nb is constant (inlined for a pyramid of condim 3)
static inline void sumRows(mjtNum* restrict s, const mjtNum* restrict val, int n, int nb,
                           const mjtNum* restrict delta) {
  for (int t = 0; t < n; t++) {
    mjtNum st = val[t] * delta[0];
    for (int r = 1; r < nb; r++) st += val[r * n + t] * delta[r];
    s[t] = st;
  }
}

// z += sum_r w_{i+r} delta_r over the nb rows from row i sharing the n dofs ind, their values
// in val (row by row): the sums first (sumRows), then added into z two dofs a pass (half the
// loop's counting and branching).  Each sum starts at its first product rather than at 0:
// they differ only in the sign of a zero sum, and z is never -0 (it starts at +0, and x + y
// is -0 only when both are), so z + s is the same
static inline void moveShared(Dual* q, const int* ind, const mjtNum* val, int n, int nb,
                              const mjtNum* delta) {
  int moved = 0;
  for (int r = 0; r < nb; r++) moved |= delta[r] != 0;
  if (!moved) return;
  sumRows(q->zmove, val, n, nb, delta);
  int t = 0;
  for (; t + 2 <= n; t += 2) {
    q->z[ind[t]] += q->zmove[t];
    q->z[ind[t + 1]] += q->zmove[t + 1];
  }
  if (t < n) q->z[ind[t]] += q->zmove[t];
}

// the forces of the nb rows from row i have changed by delta: z += sum_r w_{i+r} delta_r
static void blockMove(Dual* q, int i, int nb, const mjtNum* delta) {
  if (!q->bshared[i]) {
    rowsMove(q, i, nb, delta);
    return;
  }
  int n = q->wnnz[i];
  const int* ind = q->wind[i];
  const mjtNum* val = q->wval + q->wadr[i];
  if (nb == 4) {
    moveShared(q, ind, val, n, 4, delta);
  } else {
    moveShared(q, ind, val, n, nb, delta);
  }
}

// ---- dual solver: PGS --------------------------------------------------------------------------

// one PGS update of an elliptic contact's forces f, as MuJoCo 3.5.1 iterates (found by probing
// its solver): first the whole block along v = f / f_n (scaling keeps it in the cone; v = the
// normal alone when f_n = 0) by the exact minimizer along that line, f_n kept >= 0; then the
// friction forces by the exact minimizer over the disk |f_t / friction| <= f_n, the normal held
void mju_ellipticPGS(mjtNum* f, const mjtNum* Ab, const mjtNum* res, const mjtNum* mu,
                     int dim) {
  int nt = dim - 1;
  mjtNum v[6] = {1, 0, 0, 0, 0, 0}, Av[6], Att[25], c[5];

  // the line: t = -res'v / v'Ab v, clamped at f_n + t = 0
  if (f[0] > 0) {
    for (int j = 1; j < dim; j++) v[j] = f[j] / f[0];
  }
  for (int j = 0; j < dim; j++) Av[j] = mju_dot(Ab + j * dim, v, dim);
  mjtNum vAv = mju_dot(v, Av, dim), t = vAv > mjMINVAL ? -mju_dot(res, v, dim) / vAv : 0;
  if (f[0] + t < 0) t = -f[0];
  for (int j = 0; j < dim; j++) f[j] += t * v[j];

  // the friction forces: 0.5 y'Att y + y'c, c = res_t + t (Ab v)_t - Att f_t
  if (f[0] <= 0) {
    mju_zero(f, dim);
    return;
  }
  for (int j = 0; j < nt; j++) {
    c[j] = res[1 + j] + t * Av[1 + j];
    for (int k = 0; k < nt; k++) {
      Att[j * nt + k] = Ab[(1 + j) * dim + 1 + k];
      c[j] -= Att[j * nt + k] * f[1 + k];
    }
  }
  mju_QCQP(f + 1, Att, c, mu, f[0], nt, NULL);
}

// the state of an elliptic block of nb rows at row i, by its force in the cone's own scale
// (N = f_0 / mu, T = |f_j / friction_j|): satisfied inside the cone (mu N >= T), quadratic in
// the dual cone (N + mu T <= 0), else cone
static int ellipticZone(const mjData* d, int i, int nb) {
  const mjContact* con = d->contact + d->efc_id[i];
  const mjtNum* f = d->efc_force + i;
  mjtNum mu = con->mu, N = f[0] / mu, T = 0;
  for (int j = 1; j < nb; j++) {
    mjtNum t = f[j] / con->friction[j - 1];
    T += t * t;
  }
  T = sqrt(T);
  return mu * N >= T ? mjCNSTRSTATE_SATISFIED
                     : (N + mu * T <= 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_CONE);
}

// the state of row i of the given type (not an elliptic cone's) with force f: equality
// quadratic; friction loss linear at its bounds; one-sided rows quadratic with positive force
static inline int rowState(const mjData* d, int i, int type, mjtNum f) {
  if (type == mjCNSTR_EQUALITY) return mjCNSTRSTATE_QUADRATIC;
  if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
    mjtNum fl = d->efc_frictionloss[i];
    return f >= fl ? mjCNSTRSTATE_LINEARNEG
                   : (f <= -fl ? mjCNSTRSTATE_LINEARPOS : mjCNSTRSTATE_QUADRATIC);
  }
  return f > 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
}

// row i's state = s, counted in cnt: [0] the rows whose state changes, [1] the active rows
// (not satisfied)
static inline void setState(mjData* d, int i, int s, int cnt[2]) {
  cnt[0] += d->efc_state[i] != s;
  cnt[1] += s != mjCNSTRSTATE_SATISFIED;
  d->efc_state[i] = s;
}

// the states of the block of nb rows at row i (dualBlock), an elliptic block's rows all in its
// zone, counted in cnt
static void blockState(mjData* d, int i, int nb, int cnt[2]) {
  int type = d->efc_type[i], ell = type == mjCNSTR_CONTACT_ELLIPTIC;
  int zone = ell ? ellipticZone(d, i, nb) : 0;
  for (int j = 0; j < nb; j++) {
    setState(d, i + j, ell ? zone : rowState(d, i + j, type, d->efc_force[i + j]), cnt);
  }
}

// the states of all rows, block by block
static void dualState(mjData* d) {
  int cnt[2] = {0, 0};
  for (int i = 0, nb; i < d->nefc; i += nb) {
    nb = dualBlock(d, i);
    blockState(d, i, nb, cnt);
  }
}

// force f of scalar row i (not an elliptic cone's) within its bounds: a friction loss row's
// box [-frictionloss, frictionloss], non-negative but for equality rows
static mjtNum rowBound(const mjData* d, int i, mjtNum f) {
  int type = d->efc_type[i];
  if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
    mjtNum fl = d->efc_frictionloss[i];
    return f < -fl ? -fl : (f > fl ? fl : f);
  }
  return type != mjCNSTR_EQUALITY && f < 0 ? 0 : f;
}

// the projected Gauss-Seidel update of row i alone (not an elliptic cone's), res = (A f + b)_i
// on entry and aii = A(i, i): f_i -= res / A(i, i) (1 / A(i, i) in ainv), then the row's bounds
// (rowBound) and its state, counted in cnt; delta = the force's change; returns the dual cost
// change delta (res + aii delta / 2)
static mjtNum pgsRow(mjData* d, int i, mjtNum aii, mjtNum ainv, mjtNum res, mjtNum* delta,
                     int cnt[2]) {
  int type = d->efc_type[i];
  mjtNum* f = d->efc_force + i;
  mjtNum old = *f;
  *f = rowBound(d, i, *f - res * ainv);
  *delta = *f - old;
  setState(d, i, rowState(d, i, type, *f), cnt);
  return *delta * (res + 0.5 * aii * *delta);
}

// MuJoCo's update of the elliptic contact's dim rows at row i, its block of A in Ab (dim x
// dim) and res = (A f + b) of its rows on entry (mju_ellipticPGS); the forces' changes to
// delta, the states counted in cnt (blockState); returns the dual cost change
// delta' res + delta' Ab delta / 2
static mjtNum pgsElliptic(mjData* d, int i, int dim, const mjtNum* Ab, const mjtNum* res,
                          mjtNum* delta, int cnt[2]) {
  mjtNum *f = d->efc_force + i, old[6], change = 0;
  mju_copy(old, f, dim);
  mju_ellipticPGS(f, Ab, res, d->contact[d->efc_id[i]].friction, dim);
  for (int j = 0; j < dim; j++) delta[j] = f[j] - old[j];
  for (int j = 0; j < dim; j++) {
    change += delta[j] * (res[j] + 0.5 * mju_dot(Ab + j * dim, delta, dim));
  }
  blockState(d, i, dim, cnt);
  return change;
}

// qfrc_constraint = J' f and qacc = qacc_smooth + inv(M) qfrc_constraint
static void dualFinish(const mjModel* m, mjData* d) {
  mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
  mj_solveM(m, d, d->qacc, d->qfrc_constraint, 1);
  mju_addTo(d->qacc, d->qacc_smooth, m->nv);
}

// PCG32 (O'Neill), the generator of MuJoCo's PGS order: state' = state a + (inc | 1), the
// output the xorshifted high bits rotated by the top five
typedef struct {
  uint64_t state, inc;
} Pcg32;

// the next 32 bits of rng
static uint32_t pcgNext(Pcg32* rng) {
  uint64_t old = rng->state;
  rng->state = old * 6364136223846793005ULL + (rng->inc | 1);
  uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27), rot = (uint32_t)(old >> 59);
  return (x >> rot) | (x << ((-rot) & 31));
}

// a[0..n) permuted in place by Fisher-Yates from the last element down: a[i] swaps with
// a[next % (i + 1)]
static void shuffle(int* a, int n, Pcg32* rng) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(pcgNext(rng) % (uint32_t)(i + 1)), t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

// Nesterov's extrapolation of the forces, f += beta (f - prev) (prev = f before it), projected
// back: friction loss into its box, limits and contacts non-negative, an elliptic contact's
// friction scaled into its cone (all zero with a negative normal force); z moves with f
static void pgsMomentum(Dual* q, mjData* d, mjtNum* prev, mjtNum beta) {
  mjtNum* f = d->efc_force;
  for (int i = 0; i < d->nefc; i++) {
    mjtNum fi = f[i];
    f[i] += beta * (fi - prev[i]);
    prev[i] = fi;
  }
  for (int i = 0; i < d->nefc; i++) {
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      mjtNum t = 0;
      for (int j = 1; j < con->dim; j++) {
        t += f[i + j] * f[i + j] / (con->friction[j - 1] * con->friction[j - 1]);
      }
      if (f[i] < 0) {
        mju_zero(f + i, con->dim);
      } else if (t > f[i] * f[i]) {
        mjtNum scl = sqrt(f[i] * f[i] / fmax(mjMINVAL, t));
        for (int j = 1; j < con->dim; j++) f[i + j] *= scl;
      }
      i += con->dim - 1;
    } else {
      f[i] = rowBound(d, i, f[i]);
    }
  }
  dualMoveAll(q, d->nefc, f, prev);
}

// PGS on the dual problem from efc_force, improvement scaled by scale, as MuJoCo 3.14 iterates:
// each sweep visits the rows (an elliptic contact's rows as one) in an order shuffled anew
// (PCG32 seeded 0, 1 afresh each solve), each update with its current residual A f + b; before
// a sweep, Nesterov's momentum f += beta (f - f_prev), beta = (k - 1) / (k + 2), projected
// back (pgsMomentum), k counting the sweeps since it last restarted: it restarts when a sweep's
// correction opposes the extrapolation, (f - f_mom)'(f_mom - f_prev) < 0.  Then the primal
// quantities of the forces (the states are those the last sweep set)
static void solPGS(const mjModel* m, mjData* d, int maxiter, mjtNum scale) {
  int nefc = d->nefc, nunit = 0, k = 0;
  size_t mark = mj_markStack(d);
  Dual q;
  d->solver_niter = 0;
  int* unit = mj_stackInt(d, nefc);
  mjtNum *prev = mj_stackAlloc(d, nefc), *mom = mj_stackAlloc(d, nefc);
  if (!unit || !prev || !mom || !dualInit(m, d, &q, 1)) {
    mj_warning(d, mjWARN_CNSTRFULL, nefc);
    mju_copy(d->qacc, d->qacc_smooth, m->nv);
    mj_freeStack(d, mark);
    return;
  }
  dualState(d);
  for (int i = 0; i < nefc; i++) {
    unit[nunit++] = i;
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) i += d->contact[d->efc_id[i]].dim - 1;
  }
  Pcg32 rng = {0, 1};
  pcgNext(&rng);
  mju_copy(prev, d->efc_force, nefc);

  for (int iter = 0; iter < maxiter; iter++) {
    // momentum, then the sweep in a new order; a unit's forces are final for the sweep once
    // updated, so its states are set and counted there (cnt: changed, active)
    mjtNum beta = iter ? (mjtNum)(k - 1) / (mjtNum)(k + 2) : 0;
    if (beta > 0) pgsMomentum(&q, d, prev, beta);
    else mju_copy(prev, d->efc_force, nefc);
    mju_copy(mom, d->efc_force, nefc);
    shuffle(unit, nunit, &rng);
    mjtNum improvement = 0, res[6], delta[6];
    int cnt[2] = {0, 0};
    for (int u = 0; u < nunit; u++) {
      int i = unit[u];
      if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
        int nb = q.bsize[i];
        blockResidual(&q, d, i, nb, res);
        improvement -= pgsElliptic(d, i, nb, q.blk + q.bofs[i], res, delta, cnt);
        blockMove(&q, i, nb, delta);
      } else {
        improvement -= pgsRow(d, i, 1 / q.Ainv[i], q.Ainv[i], dualResidual(&q, d, i), delta, cnt);
        dualMove(&q, i, delta[0]);
      }
    }

    // statistics, the restart test, the stopping test
    improvement *= scale;
    saveStats(d, iter, improvement, 0, 0, cnt[1], cnt[0], 0, 0);
    d->solver_niter = iter + 1;
    mjtNum turn = 0;
    for (int i = 0; iter && i < nefc; i++) turn += (d->efc_force[i] - mom[i]) * (mom[i] - prev[i]);
    k = turn < 0 ? 0 : k + 1;
    if (improvement < m->opt.tolerance) break;
  }
  dualFinish(m, d);
  mj_freeStack(d, mark);
}

// PGS on the dual problem from efc_force (solPGS)
void mj_solPGS(const mjModel* m, mjData* d, int maxiter) { solPGS(m, d, maxiter, costScale(m)); }

// ---- noslip: the friction rows without their regularizer -----------------------------------

// one noslip update of the friction row or friction block of nb rows at row i (A without R, its
// block in Ab): a friction loss row by Gauss-Seidel clamped to +-frictionloss; each opposite
// pair of a pyramid's edges in turn along e = (1, -1), which keeps their sum (the normal force)
// and both non-negative; an elliptic contact's friction forces as the exact minimizer over the
// disk |f_t / friction| <= f_normal, the normal held; returns the dual cost change
static mjtNum noslipBlock(mjData* d, Dual* q, int i, int nb, const mjtNum* Ab) {
  int type = d->efc_type[i];
  mjtNum* f = d->efc_force + i;
  mjtNum change = 0;

  // friction loss
  if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
    mjtNum old = f[0], fl = d->efc_frictionloss[i], res = dualResidual(q, d, i);
    f[0] -= res * q->Ainv[i];
    f[0] = f[0] < -fl ? -fl : (f[0] > fl ? fl : f[0]);
    mjtNum delta = f[0] - old;
    dualMove(q, i, delta);
    return delta * res + 0.5 * Ab[0] * delta * delta;
  }

  // pyramid, each pair: f+ += x, f- -= x with x in [-f+, f-] minimizing
  // x (res+ - res-) + 0.5 x^2 (A++ - 2 A+- + A--)
  if (type == mjCNSTR_CONTACT_PYRAMIDAL) {
    for (int a = 0; a < nb; a += 2) {
      mjtNum g = dualResidual(q, d, i + a) - dualResidual(q, d, i + a + 1);
      mjtNum h = Ab[a * nb + a] - 2 * Ab[a * nb + a + 1] + Ab[(a + 1) * nb + a + 1];
      if (h < mjMINVAL) continue;
      mjtNum x = -g / h;
      x = x < -f[a] ? -f[a] : (x > f[a + 1] ? f[a + 1] : x);
      f[a] += x;
      f[a + 1] -= x;
      dualMove(q, i + a, x);
      dualMove(q, i + a + 1, -x);
      change += x * g + 0.5 * h * x * x;
    }
    return change;
  }
  if (type != mjCNSTR_CONTACT_ELLIPTIC) return 0;

  // elliptic: 0.5 y'Att y + y'c over the friction forces y, c = res_t - Att f_t
  const mjContact* con = d->contact + d->efc_id[i];
  int nt = nb - 1;
  mjtNum Att[25], c[5], res[5], old[5], delta[5];
  for (int j = 0; j < nt; j++) {
    old[j] = f[1 + j];
    c[j] = res[j] = dualResidual(q, d, i + 1 + j);
    for (int k = 0; k < nt; k++) {
      Att[j * nt + k] = Ab[(1 + j) * nb + 1 + k];
      c[j] -= Att[j * nt + k] * f[1 + k];
    }
  }
  if (f[0] <= 0) {
    mju_zero(f + 1, nt);
  } else {
    mju_QCQP(f + 1, Att, c, con->friction, f[0], nt, NULL);
  }
  for (int j = 0; j < nt; j++) delta[j] = f[1 + j] - old[j];
  for (int j = 0; j < nt; j++) {
    change += delta[j] * (res[j] + 0.5 * mju_dot(Att + j * nt, delta, nt));
    dualMove(q, i + 1 + j, delta[j]);
  }
  return change;
}

// noslip after the main solver: PGS sweeps over the friction rows only, with A = J inv(M) J'
// unregularized and every other force held, until the scaled improvement falls below
// noslip_tolerance or maxiter sweeps; then qfrc_constraint, qacc and the states as PGS leaves
// them.  As in MuJoCo, each sweep counts as a solver iteration, and the first one's
// improvement includes dropping the regularizer, 0.5 sum R f^2 over every row.
static void solNoSlip(const mjModel* m, mjData* d, int maxiter, mjtNum scale) {
  int nefc = d->nefc, iter0 = d->solver_niter;
  size_t mark = mj_markStack(d);
  Dual q;
  if (!dualInit(m, d, &q, 0)) {
    mj_warning(d, mjWARN_CNSTRFULL, nefc);
    mj_freeStack(d, mark);
    return;
  }
  mjtNum improvement = 0;
  for (int i = 0; i < nefc; i++) {
    improvement += 0.5 * d->efc_R[i] * d->efc_force[i] * d->efc_force[i];
  }

  for (int iter = 0; iter < maxiter; iter++) {
    for (int i = 0, nb; i < nefc; i += nb) {
      nb = q.bsize[i];
      improvement -= noslipBlock(d, &q, i, nb, q.blk + q.bofs[i]);
    }
    improvement *= scale;
    saveStats(d, d->solver_niter++, improvement, 0, 0, 0, 0, 0, 0);
    if (improvement < m->opt.noslip_tolerance) break;
    improvement = 0;
  }

  // the primal quantities of the forces; the states in the statistics' active counts
  dualFinish(m, d);
  dualState(d);
  int nactive = activeCount(d);
  for (int k = iter0; k < d->solver_niter && k < mjNSOLVER; k++) d->solver[k].nactive = nactive;
  mj_freeStack(d, mark);
}

// noslip after the main solver (solNoSlip)
void mj_solNoSlip(const mjModel* m, mjData* d, int maxiter) {
  solNoSlip(m, d, maxiter, costScale(m));
}

// ---- warmstart --------------------------------------------------------------------------------

// efc_b = J qacc_smooth - aref; then the start of the solver: unless warmstart is disabled,
// qacc = qacc_warmstart when its primal cost is lower than qacc_smooth's (CG, Newton) or
// efc_force = the forces of qacc_warmstart when their dual cost is negative (PGS); else
// qacc = qacc_smooth and efc_force = 0
void mj_solWarmstart(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc;
  mj_mulJacVec(m, d, d->efc_b, d->qacc_smooth);
  mju_subFrom(d->efc_b, d->efc_aref, nefc);
  size_t mark = mj_markStack(d);
  mjtNum* tmp = m->opt.disableflags & mjDSBL_WARMSTART ? NULL
                                                        : mj_stackAlloc(d, (size_t)nefc + nv);

  // cold start
  if (!tmp) {
    mju_copy(d->qacc, d->qacc_smooth, nv);
    mju_zero(d->efc_force, nefc);
    mj_freeStack(d, mark);
    return;
  }

  // forces and constraint cost of the warmstart: jar = J qacc_warmstart - aref
  mjtNum *jar = tmp, *Ma = tmp + nefc;
  mju_copy(d->qacc, d->qacc_warmstart, nv);
  mj_mulJacVec(m, d, jar, d->qacc_warmstart);
  mju_subFrom(jar, d->efc_aref, nefc);
  mjtNum cost_warm = rowsUpdate(d, jar, 0), cost_smooth;

  // PGS: dual cost 0.5 f'Af + f'b = 0.5 f'R f + 0.5 |J'f|^2_inv(M) + f'b; zero forces if > 0
  if (m->opt.solver == mjSOL_PGS) {
    mj_mulJacTVec(m, d, d->qfrc_constraint, d->efc_force);
    mj_solveM(m, d, Ma, d->qfrc_constraint, 1);
    mjtNum dual = 0.5 * mju_dot(Ma, d->qfrc_constraint, nv);
    for (int i = 0; i < nefc; i++) {
      mjtNum f = d->efc_force[i];
      dual += f * d->efc_b[i] + 0.5 * d->efc_R[i] * f * f;
    }
    if (dual > 0) mju_zero(d->efc_force, nefc);
  }

  // primal: add the Gauss cost 0.5 (M qacc_w - qfrc_smooth)'(qacc_w - qacc_smooth), compare
  // with the cost of qacc_smooth (constraints only, at jar = efc_b)
  else {
    mj_mulM(m, d, Ma, d->qacc_warmstart);
    for (int i = 0; i < nv; i++) {
      cost_warm += 0.5 * (Ma[i] - d->qfrc_smooth[i]) * (d->qacc_warmstart[i] - d->qacc_smooth[i]);
    }
    cost_smooth = rowsUpdate(d, d->efc_b, 0);
    if (cost_warm > cost_smooth) mju_copy(d->qacc, d->qacc_smooth, nv);
  }
  mj_freeStack(d, mark);
}

// ---- islands -----------------------------------------------------------------------------------

// the solver of m->opt.solver and, with noslip, noslip on island mi, di (a view of m's, or m
// itself): CG and Newton scaled by 1 / (the trace of the island's M), PGS and noslip by m's
// costScale
static void solveIsland(const mjModel* m, const mjModel* mi, mjData* di, int noslip) {
  if (m->opt.solver == mjSOL_PGS) {
    solPGS(mi, di, m->opt.iterations, costScale(m));
  } else {
    mjtNum trace = 0;
    for (int j = 0; j < mi->nv; j++) trace += di->qM[mi->dof_Madr[j]];
    solPrimal(mi, di, m->opt.iterations, m->opt.solver != mjSOL_CG, 1 / trace);
  }
  if (noslip) solNoSlip(mi, di, m->opt.noslip_iterations, costScale(m));
}

// the solver of m->opt.solver from its start (and noslip after it when asked) island by island
// (island.c), each island's view alone (solveIsland), as MuJoCo does; the dofs of no island
// keep qacc_smooth and no constraint force; each island's iterations go to island_niter,
// solver_niter and solver[] are island 0's.  0 when there is no island, or too little stack or
// arena, counted as mjWARN_CNSTRFULL (the caller then solves all rows at once)
static int solveIslands(const mjModel* m, mjData* d, int noslip) {
  size_t mark = mj_markStack(d);
  mjIslands isl;
  // one island of every dof (a robot's usual case) is the whole problem, solved in place;
  // known without the search when the model is one tree that every row touches
  int whole = mj_islandWhole(m, d), found = whole ? 1 : mj_islandFind(m, d, &isl);
  int nisland = whole ? 1 : isl.nisland, *niter = NULL;
  if (found > 0 && nisland && !(niter = mj_arenaAlloc(d, sizeof(int) * nisland))) found = -1;
  if (found <= 0 || !nisland) {
    if (found < 0) mj_warning(d, mjWARN_CNSTRFULL, d->nefc);
    mj_freeStack(d, mark);
    return 0;
  }
  if (whole || (isl.nidof == m->nv && nisland == 1)) {
    solveIsland(m, m, d, noslip);
    niter[0] = d->solver_niter;
  } else {
    for (int j = isl.nidof; j < m->nv; j++) {
      d->qacc[isl.dof[j]] = d->qacc_smooth[isl.dof[j]];
      d->qfrc_constraint[isl.dof[j]] = 0;
    }
    for (int k = 0; k < nisland; k++) {
      size_t markIsland = mj_markStack(d);
      mjModel mi;
      mjData di;
      if (!mj_islandView(m, d, &isl, k, &mi, &di)) {
        mj_warning(d, mjWARN_CNSTRFULL, d->nefc);
        mj_freeStack(d, mark);
        return 0;
      }
      di.solver_niter = 0;
      solveIsland(m, &mi, &di, noslip);
      mj_islandScatter(d, &di, &isl, k);
      niter[k] = di.solver_niter;
      if (k == 0) {
        d->solver_niter = di.solver_niter;
        int n = di.solver_niter < mjNSOLVER ? di.solver_niter : mjNSOLVER;
        memcpy(d->solver, di.solver, sizeof(mjSolverStat) * n);
      }
      mj_freeStack(d, markIsland);
    }
  }
  d->nisland = nisland;
  d->island_niter = niter;
  mj_freeStack(d, mark);
  return 1;
}

// warmstart, then the solver of m->opt.solver and, with noslip, noslip after it: island by
// island unless the island flag is disabled, else over all rows at once
void mj_solConstraint(const mjModel* m, mjData* d, int noslip) {
  d->solver_niter = 0;
  d->nisland = 0;
  d->island_niter = NULL;
  mj_solWarmstart(m, d);
  if (!(m->opt.disableflags & mjDSBL_ISLAND) && solveIslands(m, d, noslip)) return;
  switch (m->opt.solver) {
    case mjSOL_PGS: mj_solPGS(m, d, m->opt.iterations); break;
    case mjSOL_CG: mj_solCG(m, d, m->opt.iterations); break;
    default: mj_solNewton(m, d, m->opt.iterations); break;
  }
  if (noslip) mj_solNoSlip(m, d, m->opt.noslip_iterations);
}
