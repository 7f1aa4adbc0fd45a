// t/unit/plan/norm.c: MuJoCo MPC's norms and the box-constrained QP (lib/plan/norm.c).
// The norms' values against their formulas (TASKS.md 1.2), their gradients and Hessians
// against central differences of the values; the box QP against its optimality conditions
// and against an exhaustive search over the active sets.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "plan/plan.h"

// every norm with parameters, at a vector with both signs and a zero
Test(norm, derivativesMatchDifferences) {
  static const int types[] = {mjNORM_QUADRATIC, mjNORM_L22, mjNORM_L2, mjNORM_COSH, mjNORM_POWER,
                              mjNORM_SMOOTHABS, mjNORM_SMOOTHABS2, mjNORM_RECTIFY};
  const mjtNum x[4] = {0.3, -0.7, 0.05, 1.2}, p[2] = {0.2, 3};
  for (int k = 0; k < (int)(sizeof(types) / sizeof(types[0])); k++) {
    int t = types[k];
    mjtNum g[4], H[16], gp[4], gm[4];
    mjp_norm(t, x, 4, t == mjNORM_POWER ? (mjtNum[]){2.5} : p, g, H);
    for (int i = 0; i < 4; i++) {
      const mjtNum h = 1e-6;
      mjtNum xp[4], xm[4];
      memcpy(xp, x, sizeof(x)), memcpy(xm, x, sizeof(x));
      xp[i] += h, xm[i] -= h;
      const mjtNum* pp = t == mjNORM_POWER ? (mjtNum[]){2.5} : p;
      mjtNum fd = (mjp_norm(t, xp, 4, pp, gp, NULL) - mjp_norm(t, xm, 4, pp, gm, NULL)) / (2 * h);
      cr_assert(fabs(fd - g[i]) < 1e-8, "%s: gradient %d: %.12g vs %.12g", mjp_normName(t), i, g[i], fd);
      for (int j = 0; j < 4; j++) {
        mjtNum hd = (gp[j] - gm[j]) / (2 * h);
        cr_assert(fabs(hd - H[j * 4 + i]) < 1e-6 * fmax(1, fabs(hd)), "%s: Hessian %d,%d: %.12g vs %.12g",
                  mjp_normName(t), j, i, H[j * 4 + i], hd);
      }
    }
  }
}

// values from the formulas of TASKS.md 1.2
Test(norm, values) {
  const mjtNum x[2] = {0.3, -0.4}, p[2] = {0.1, 4};
  cr_assert(fabs(mjp_norm(mjNORM_QUADRATIC, x, 2, p, NULL, NULL) - 0.125) < 1e-15);
  cr_assert(fabs(mjp_norm(mjNORM_L2, x, 2, p, NULL, NULL) - (sqrt(0.25 + 0.01) - 0.1)) < 1e-15);
  cr_assert(fabs(mjp_norm(mjNORM_SMOOTHABS, x, 2, p, NULL, NULL) -
                 (sqrt(0.09 + 0.01) + sqrt(0.16 + 0.01) - 0.2)) < 1e-15);
  cr_assert(fabs(mjp_norm(mjNORM_L22, x, 2, p, NULL, NULL) -
                 (pow(pow(0.25, 2) + pow(0.1, 4), 0.25) - 0.1)) < 1e-15);
  cr_assert(fabs(mjp_norm(mjNORM_RECTIFY, x, 2, (mjtNum[]){0}, NULL, NULL) - 0.3) < 1e-15);
  cr_assert_eq(mjp_norm(mjNORM_NULL, x, 1, p, NULL, NULL), 0.3);
  cr_assert_eq(mjp_normFind("smoothabs"), mjNORM_SMOOTHABS);
  cr_assert_eq(mjp_normFind("6"), mjNORM_SMOOTHABS);
  cr_assert_eq(mjp_normFind("4"), -2);
  cr_assert_eq(mjp_normParams(mjNORM_SMOOTHABS2), 2);
}

// 0.5 x'Hx + g'x
static mjtNum value(const mjtNum* H, const mjtNum* g, const mjtNum* x, int n) {
  mjtNum v = 0;
  for (int i = 0; i < n; i++) {
    v += g[i] * x[i];
    for (int j = 0; j < n; j++) v += 0.5 * x[i] * H[i * n + j] * x[j];
  }
  return v;
}

// random positive definite problems: the solution is the best of every active set's
// (each row free, at its lower or at its upper bound), and K's rows are right
Test(boxqp, matchesExhaustiveSearch) {
  unsigned s = 12345;
  for (int trial = 0; trial < 200; trial++) {
    const int n = 4;
    mjtNum M[16], H[16], g[4], lo[4], hi[4], x[4] = {0}, R[16];
    int free[4];
    for (int i = 0; i < 16; i++) M[i] = ((s = s * 1103515245 + 12345) >> 8) / 8388608.0 - 1;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        H[i * 4 + j] = i == j ? 0.1 : 0;
        for (int k = 0; k < 4; k++) H[i * 4 + j] += M[i * 4 + k] * M[j * 4 + k];
      }
    for (int i = 0; i < 4; i++) {
      g[i] = 3 * (((s = s * 1103515245 + 12345) >> 8) / 8388608.0 - 1);
      lo[i] = -0.5 - (i % 2), hi[i] = 0.3 + 0.2 * i;
    }
    int nf = mjp_boxQP(x, R, free, H, g, n, lo, hi);
    cr_assert(nf >= 0);

    // exhaustive: 3^n active sets, each a linear solve on its free rows (Gaussian elimination)
    mjtNum best = INFINITY;
    for (int code = 0; code < 81; code++) {
      int st[4], c = code;
      for (int i = 0; i < 4; i++) st[i] = c % 3, c /= 3;
      mjtNum y[4], A[16], b[4];
      int idx[4], m = 0;
      for (int i = 0; i < 4; i++) y[i] = st[i] == 1 ? lo[i] : st[i] == 2 ? hi[i] : 0;
      for (int i = 0; i < 4; i++)
        if (!st[i]) idx[m++] = i;
      for (int a = 0; a < m; a++) {
        b[a] = -g[idx[a]];
        for (int j = 0; j < 4; j++)
          if (st[j]) b[a] -= H[idx[a] * 4 + j] * y[j];
        for (int bb = 0; bb < m; bb++) A[a * m + bb] = H[idx[a] * 4 + idx[bb]];
      }
      for (int k = 0; k < m; k++)
        for (int r = k + 1; r < m; r++) {
          mjtNum f = A[r * m + k] / A[k * m + k];
          for (int cc = k; cc < m; cc++) A[r * m + cc] -= f * A[k * m + cc];
          b[r] -= f * b[k];
        }
      for (int k = m - 1; k >= 0; k--) {
        mjtNum v = b[k];
        for (int cc = k + 1; cc < m; cc++) v -= A[k * m + cc] * y[idx[cc]];
        y[idx[k]] = v / A[k * m + k];
      }
      int feasible = 1;
      for (int i = 0; i < 4; i++) feasible &= y[i] >= lo[i] - 1e-12 && y[i] <= hi[i] + 1e-12;
      if (feasible && value(H, g, y, n) < best) best = value(H, g, y, n);
    }
    cr_assert(fabs(value(H, g, x, n) - best) < 1e-10, "trial %d: %.15g vs %.15g", trial,
              value(H, g, x, n), best);
    // the free rows' factor: R R' = H_ff
    int idx[4], m = 0;
    for (int i = 0; i < 4; i++)
      if (free[i]) idx[m++] = i;
    cr_assert_eq(m, nf);
    for (int a = 0; a < m; a++)
      for (int b = 0; b <= a; b++) {
        mjtNum v = 0;
        for (int k = 0; k <= b; k++) v += R[a * m + k] * R[b * m + k];
        cr_assert(fabs(v - H[idx[a] * 4 + idx[b]]) < 1e-12);
      }
  }
}

// an indefinite Hessian on the free rows fails
Test(boxqp, indefiniteFails) {
  mjtNum H[4] = {1, 0, 0, -1}, g[2] = {0.1, 0.1}, lo[2] = {-1, -1}, hi[2] = {1, 1}, x[2] = {0, 0};
  mjtNum R[4];
  int free[2];
  cr_assert_eq(mjp_boxQP(x, R, free, H, g, 2, lo, hi), -1);
}
