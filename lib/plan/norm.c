// norm.c: MuJoCo MPC's norms of a residual, with their exact gradients and Hessians, and the
// box-constrained quadratic program the iLQG backward pass solves for its control step.
#include "plan/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/solver.h"
#include "util/util.h"

// names and parameter counts, by type + 1 (null is -1)
static const char* const normNames[] = {"null", "quadratic", "l22", "l2", "cosh", NULL,
                                        "power", "smoothabs", "smoothabs2", "rectify"};
static const int normNparam[] = {0, 0, 2, 1, 1, -1, 1, 1, 2, 1};
#define NNORM ((int)(sizeof(normNparam) / sizeof(normNparam[0])))

// the number of parameters of norm type t, -1 for an unknown type
int mjp_normParams(int t) { return t + 1 >= 0 && t + 1 < NNORM ? normNparam[t + 1] : -1; }

// the norm's name, NULL for an unknown type
const char* mjp_normName(int t) { return mjp_normParams(t) < 0 ? NULL : normNames[t + 1]; }

// the type named name (or given by its number), -2 for none
int mjp_normFind(const char* name) {
  for (int i = 0; i < NNORM; i++)
    if (normNames[i] && !strcmp(name, normNames[i])) return i - 1;
  char* end;
  long t = strtol(name, &end, 10);
  return *name && !*end && mjp_normParams((int)t) >= 0 ? (int)t : -2;
}

// the norm t of x (n) with parameters p, its gradient g and Hessian H (n x n) when wanted
mjtNum mjp_norm(int t, const mjtNum* x, int n, const mjtNum* p, mjtNum* g, mjtNum* H) {
  if (H) mju_zero(H, n * n);
  mjtNum v = 0, s, xx = mju_dot(x, x, n);
  switch (t) {
    case mjNORM_NULL:  // x[0]: g = e0, H = 0
      if (g) { mju_zero(g, n); g[0] = 1; }
      return x[0];

    case mjNORM_QUADRATIC:  // 0.5 x'x: g = x, H = I
      if (g) mju_copy(g, x, n);
      if (H) for (int i = 0; i < n; i++) H[i * n + i] = 1;
      return 0.5 * xx;

    case mjNORM_L22: {  // ((x'x)^(q/2) + p^q)^(1/q) - p = f(s), s = x'x: g = 2 f' x, H = 2 f' I + 4 f'' x x'
      mjtNum q = p[1], pq = pow(p[0], q), y = pow(xx, q / 2), b = y + pq;
      v = pow(b, 1 / q) - p[0];
      // f' = 0.5 b^(1/q-1) s^(q/2-1);  f'' = 0.5 ((1/q-1) b^(1/q-2) (q/2) s^(q-2) + b^(1/q-1) (q/2-1) s^(q/2-2))
      mjtNum d1 = xx > 0 ? 0.5 * pow(b, 1 / q - 1) * pow(xx, q / 2 - 1) : 0;
      mjtNum d2 = xx > 0 ? 0.5 * ((1 / q - 1) * pow(b, 1 / q - 2) * (q / 2) * pow(xx, q - 2) +
                                  pow(b, 1 / q - 1) * (q / 2 - 1) * pow(xx, q / 2 - 2)) : 0;
      if (g) mju_scl(g, x, 2 * d1, n);
      if (H) for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) H[i * n + j] = 4 * d2 * x[i] * x[j];
        H[i * n + i] += 2 * d1;
      }
      return v;
    }

    case mjNORM_L2:  // sqrt(x'x + p^2) - p = s - p: g = x/s, H = (I - g g')/s
      s = sqrt(xx + p[0] * p[0]);
      if (g) {
        if (s > 0) mju_scl(g, x, 1 / s, n);
        else mju_zero(g, n);
      }
      if (H && s > 0) for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) H[i * n + j] = -x[i] * x[j] / (s * s * s);
        H[i * n + i] += 1 / s;
      }
      return s - p[0];

    default: break;
  }

  // the element-wise norms: v = sum_i f(x_i), g_i = f'(x_i), H_ii = f''(x_i)
  for (int i = 0; i < n; i++) {
    mjtNum a = x[i], f, d1, d2;
    switch (t) {
      case mjNORM_COSH: {  // p^2 (cosh(a/p) - 1)
        mjtNum c = cosh(a / p[0]);
        f = p[0] * p[0] * (c - 1), d1 = p[0] * sinh(a / p[0]), d2 = c;
        break;
      }
      case mjNORM_POWER: {  // |a|^p
        mjtNum e = p[0], b = fabs(a);
        f = pow(b, e);
        d1 = b > 0 ? e * pow(b, e - 1) * (a > 0 ? 1 : -1) : 0;
        d2 = b > 0 ? e * (e - 1) * pow(b, e - 2) : 0;
        break;
      }
      case mjNORM_SMOOTHABS: {  // sqrt(a^2 + p^2) - p: f' = a/s, f'' = p^2/s^3
        mjtNum si = sqrt(a * a + p[0] * p[0]);
        f = si - p[0], d1 = si > 0 ? a / si : 0, d2 = si > 0 ? (1 - d1 * d1) / si : 0;
        break;
      }
      case mjNORM_SMOOTHABS2: {  // (|a|^q + p^q)^(1/q) - p, b = |a|^q + p^q:
        // f' = b^(1/q-1) |a|^(q-1) sign a,  f'' = (q-1) p^q |a|^(q-2) b^(1/q-2)
        mjtNum q = p[1], y = fabs(a), pq = pow(p[0], q), b = pow(y, q) + pq;
        f = pow(b, 1 / q) - p[0];
        d1 = y > 0 ? pow(b, 1 / q - 1) * pow(y, q - 1) * (a > 0 ? 1 : -1) : 0;
        d2 = y > 0 ? (q - 1) * pq * pow(y, q - 2) * pow(b, 1 / q - 2) : 0;
        break;
      }
      case mjNORM_RECTIFY:  // p log(1 + exp(a/p)), or max(a, 0) when p <= 0
        if (p[0] > 0) {
          mjtNum z = a / p[0], sg = 1 / (1 + exp(-z));
          f = p[0] * (z > 0 ? z + log1p(exp(-z)) : log1p(exp(z)));
          d1 = sg, d2 = sg * (1 - sg) / p[0];
        } else {
          f = a > 0 ? a : 0, d1 = a > 0, d2 = 0;
        }
        break;
      default: f = d1 = d2 = 0; break;
    }
    v += f;
    if (g) g[i] = d1;
    if (H) H[i * n + i] = d2;
  }
  return v;
}

// ---- box-constrained QP -------------------------------------------------------------------------

// 0.5 x'Hx + g'x
static mjtNum qpValue(const mjtNum* H, const mjtNum* g, const mjtNum* x, int n) {
  return 0.5 * mju_mulVecMatVec(x, H, x, n) + mju_dot(g, x, n);
}

// R (nf x nf) the Cholesky factor of H on the rows of free; -1 when not positive definite
static int factorFree(mjtNum* R, const mjtNum* H, const int* free, int n) {
  int idx[mjMAXBOXQP], nf = 0;
  for (int i = 0; i < n; i++)
    if (free[i]) idx[nf++] = i;
  for (int i = 0; i < nf; i++)
    for (int j = 0; j < nf; j++) R[i * nf + j] = H[idx[i] * n + idx[j]];
  for (int j = 0; j < nf; j++) {
    mjtNum* rj = R + j * nf;
    mjtNum piv = rj[j] - mju_dot(rj, rj, j);
    if (!(piv > 0)) return -1;
    rj[j] = sqrt(piv);
    for (int i = j + 1; i < nf; i++) {
      mjtNum* ri = R + i * nf;
      ri[j] = (ri[j] - mju_dot(ri, rj, j)) / rj[j];
    }
  }
  return nf;
}

// projected Newton (Tassa, Mansard and Todorov 2014): at x the gradient G = g + Hx; a row
// at a bound whose gradient pushes outward is clamped, the rest free; the Newton step on the
// free rows s_f = -H_ff^-1 G_f, then a projected backtracking line search (Armijo 0.1,
// factor 0.6) along clamp(x + a s).  Stops when the free gradient or the improvement vanish
int mjp_boxQP(mjtNum* x, mjtNum* R, int* free, const mjtNum* H, const mjtNum* g, int n,
              const mjtNum* lo, const mjtNum* hi) {
  mjtNum grad[mjMAXBOXQP], step[mjMAXBOXQP], xt[mjMAXBOXQP];
  if (n > mjMAXBOXQP) return -1;
  for (int i = 0; i < n; i++) x[i] = mju_minc(mju_maxc(x[i], lo[i]), hi[i]);
  mjtNum val = qpValue(H, g, x, n);
  int nf = 0;
  for (int iter = 0; iter < 100; iter++) {
    // gradient and free set
    mju_mulMatVec(grad, H, x, n, n);
    mju_addTo(grad, g, n);
    mjtNum gnorm = 0;
    for (int i = 0; i < n; i++) {
      free[i] = !((x[i] <= lo[i] && grad[i] > 0) || (x[i] >= hi[i] && grad[i] < 0));
      if (free[i]) gnorm += grad[i] * grad[i];
    }
    if ((nf = factorFree(R, H, free, n)) <= 0 || gnorm < 1e-26) break;

    // Newton step on the free rows
    mjtNum gf[mjMAXBOXQP];
    int k = 0;
    for (int i = 0; i < n; i++)
      if (free[i]) gf[k++] = -grad[i];
    mju_cholSolve(gf, R, gf, nf);
    k = 0;
    for (int i = 0; i < n; i++) step[i] = free[i] ? gf[k++] : 0;
    mjtNum slope = mju_dot(step, grad, n);
    if (slope >= 0) break;

    // projected backtracking
    mjtNum a = 1, vt = val;
    for (;;) {
      for (int i = 0; i < n; i++) xt[i] = mju_minc(mju_maxc(x[i] + a * step[i], lo[i]), hi[i]);
      vt = qpValue(H, g, xt, n);
      if (vt - val <= 0.1 * a * slope) break;
      if ((a *= 0.6) < 1e-20) break;
    }
    if (!(vt < val)) break;
    mjtNum gain = val - vt;
    mju_copy(x, xt, n);
    val = vt;
    if (gain < 1e-14 * (1 + fabs(val))) {
      // the last free set at the new point
      mju_mulMatVec(grad, H, x, n, n);
      mju_addTo(grad, g, n);
      for (int i = 0; i < n; i++)
        free[i] = !((x[i] <= lo[i] && grad[i] > 0) || (x[i] >= hi[i] && grad[i] < 0));
      nf = factorFree(R, H, free, n);
      break;
    }
  }
  return nf;
}
