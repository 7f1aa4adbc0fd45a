// solver.h: internals of the constraint solvers (lib/engine/solver.c) shared with their tests; the
// public functions (mj_constraintUpdate, mj_solPGS, mj_solCG, mj_solNewton, mj_solNoSlip,
// mj_solWarmstart) are declared in mj.h.
#ifndef MJ_SOLVER_H
#define MJ_SOLVER_H

#include "mj.h"

// dense Cholesky factor mat = L L' in place (lower triangle; the upper is left as it was);
// pivots below mindiag are replaced by mindiag; returns how many were replaced
int mju_cholFactor(mjtNum* mat, int n, mjtNum mindiag);

// res = inv(L L') vec with a factor from mju_cholFactor (res may equal vec)
void mju_cholSolve(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int n);

// X = inv(L L') X for n right sides held by rows (X(i, v) at X[i n + v]), L (nv x nv) from
// mju_cholFactor
void mju_cholSolveRows(mjtNum* X, const mjtNum* mat, int nv, int n);

// L L' + x x' (flg_plus) or L L' - x x' in place for a factor from mju_cholFactor; x is
// overwritten; returns 0 when a downdate leaves a pivot below mjMINVAL (the factor is then
// invalid and must be recomputed)
int mju_cholUpdate(mjtNum* mat, mjtNum* x, int n, int flg_plus);

// sparse H = L' D L (L unit lower triangular, eliminated from the last row, as qLD): L by rows
// of strictly lower entries in ascending columns (rownnz, rowadr, colind), a structure closed
// under the elimination.  On entry L and D hold H's strictly lower triangle and diagonal;
// pivots below mindiag are replaced; returns how many were
int mju_factorLDL(mjtNum* L, mjtNum* D, int n, const int* rownnz, const int* rowadr,
                  const int* colind, mjtNum mindiag);

// res = inv(L' D L) vec (res may equal vec)
void mju_solveLDL(mjtNum* res, const mjtNum* L, const mjtNum* D, const mjtNum* vec, int n,
                  const int* rownnz, const int* rowadr, const int* colind);

// L' D L +- x x' in place: x dense (n) with its non-zeros at ind[0..nind), zero on return;
// work: 2 n ints, zero on entry and on return; returns 0 when a pivot falls below mjMINVAL
// (the factor is then invalid and must be recomputed)
int mju_updateLDL(mjtNum* L, mjtNum* D, mjtNum* x, int flg_plus, const int* ind, int nind,
                  int n, const int* rownnz, const int* rowadr, const int* colind, int* work);

// the minimizer of 0.5 x'Ax + x'b over the ellipsoid sum_i (x_i / d_i)^2 <= r^2, n <= 5
// (A symmetric positive definite n x n, d > 0); returns 1 when the bound is active, with its
// multiplier in *lambda (0 when inactive; lambda may be NULL): (D A D + lambda I) (x / d) = -D b
int mju_QCQP(mjtNum* x, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n,
             mjtNum* lambda);

// one PGS update of an elliptic contact's forces f (dim <= 6 rows, Ab their dim x dim block of
// the dual's A, res = A f + b at them, mu the dim - 1 friction coefficients), as MuJoCo's
// iterates: the block along f / f_n (the normal alone when f_n = 0) to the minimum on that line
// with f_n >= 0, then the friction forces to the minimum over |f_t / mu| <= f_n
void mju_ellipticPGS(mjtNum* f, const mjtNum* Ab, const mjtNum* res, const mjtNum* mu, int dim);

#endif
