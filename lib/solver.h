// solver.h: internals of the constraint solvers (lib/solver.c) shared with their tests; the
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

// the minimizer of 0.5 x'Ax + x'b over the ellipsoid sum_i (x_i / d_i)^2 <= r^2, n <= 5
// (A symmetric positive definite n x n, d > 0); returns 1 when the bound is active, with its
// multiplier in *lambda (0 when inactive; lambda may be NULL): (D A D + lambda I) (x / d) = -D b
int mju_QCQP(mjtNum* x, const mjtNum* A, const mjtNum* b, const mjtNum* d, mjtNum r, int n,
             mjtNum* lambda);

// x = the minimizer of 0.5 x'Ab x + x'c over the cone x0 >= |x_t / mu| (Ab symmetric positive
// definite dim x dim, dim <= 6, x_t = x[1..dim-1], mu = dim - 1 positive coefficients)
void mju_coneMin(mjtNum* x, const mjtNum* Ab, const mjtNum* c, const mjtNum* mu, int dim);

#endif
