// util_blas.c: vectors and dense row-major matrices.
#include "util/util.h"

#include <math.h>
#include <string.h>

// ---- n-vectors ---------------------------------------------------------------------------------

// res = 0
void mju_zero(mjtNum* res, int n) {
  if (n > 0) memset(res, 0, (size_t)n * sizeof(mjtNum));
}

// res = vec (memmove: res may overlap vec)
void mju_copy(mjtNum* res, const mjtNum* vec, int n) {
  if (n > 0 && res != vec) memmove(res, vec, (size_t)n * sizeof(mjtNum));
}

// |vec|
mjtNum mju_norm(const mjtNum* vec, int n) { return sqrt(mju_dot(vec, vec, n)); }

// vec /= |vec|; a vector too short to normalize becomes the first unit vector
mjtNum mju_normalize(mjtNum* vec, int n) {
  mjtNum norm = mju_norm(vec, n);
  if (norm < mjMINVAL) {
    mju_zero(vec, n);
    if (n > 0) vec[0] = 1;
  } else {
    mju_scl(vec, vec, 1 / norm, n);
  }
  return norm;
}

// 1 when every entry of vec is 0
int mju_isZero(const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++)
    if (vec[i] != 0) return 0;
  return 1;
}

// ---- 3-vectors ---------------------------------------------------------------------------------

// |a - b|
mjtNum mju_dist3(const mjtNum a[3], const mjtNum b[3]) {
  mjtNum d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return mju_norm3(d);
}

// ---- matrices ----------------------------------------------------------------------------------

// res = mat * vec; a row is finished before res is written, so res may alias vec when nr == 1
void mju_mulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc) {
  for (int r = 0; r < nr; r++) res[r] = mju_dot(mat + (size_t)r * nc, vec, nc);
}

// res = mat' * vec, accumulated row by row of mat (no alias with vec)
void mju_mulMatTVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc) {
  mju_mulMatTVecLen(res, mat, vec, nr, nc, NULL);
}

// res = mat' * vec, each row to its length len[r] (all nc when len is NULL or vec[r] is not
// finite); zero entries of vec skip their rows
void mju_mulMatTVecLen(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc,
                       const int* len) {
  mju_zero(res, nc);
  for (int r = 0; r < nr; r++) {
    if (!vec[r]) continue;
    int n = len && isfinite(vec[r]) ? len[r] : nc;
    mju_addToScl(res, mat + (size_t)r * nc, vec[r], n);
  }
}

// res = a * b
void mju_mulMatMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2) {
  mju_zero(res, r1 * c2);
  for (int i = 0; i < r1; i++)
    for (int k = 0; k < c1; k++) {
      mjtNum aik = a[(size_t)i * c1 + k];
      if (aik) mju_addToScl(res + (size_t)i * c2, b + (size_t)k * c2, aik, c2);
    }
}

// res = a * b'
void mju_mulMatMatT(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int r2) {
  for (int i = 0; i < r1; i++)
    for (int j = 0; j < r2; j++)
      res[(size_t)i * r2 + j] = mju_dot(a + (size_t)i * c1, b + (size_t)j * c1, c1);
}

// res = a' * b
void mju_mulMatTMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2) {
  mju_zero(res, c1 * c2);
  for (int k = 0; k < r1; k++)
    for (int i = 0; i < c1; i++) {
      mjtNum aki = a[(size_t)k * c1 + i];
      if (aki) mju_addToScl(res + (size_t)i * c2, b + (size_t)k * c2, aki, c2);
    }
}

// res = mat'
void mju_transpose(mjtNum* res, const mjtNum* mat, int nr, int nc) {
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++) res[(size_t)j * nr + i] = mat[(size_t)i * nc + j];
}

// vec1' * mat * vec2
mjtNum mju_mulVecMatVec(const mjtNum* vec1, const mjtNum* mat, const mjtNum* vec2, int n) {
  mjtNum s = 0;
  for (int i = 0; i < n; i++) s += vec1[i] * mju_dot(mat + (size_t)i * n, vec2, n);
  return s;
}

// ---- polynomial springs and dampers ------------------------------------------------------------

// c(x) = k + p0 y + p1 y^2, y = x or |x| (odd), summed in MuJoCo's order
mjtNum mju_polyCoef(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd) {
  mjtNum y = odd ? fabs(x) : x, res = k, pw = 1;
  for (int i = 0; i < mjNPOLY; i++) {
    pw *= y;
    res += p[i] * pw;
  }
  return res;
}

// d(x c(x))/dx = k + sum (i + 2) p_i y^(i+1)
mjtNum mju_polySlope(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd) {
  mjtNum y = odd ? fabs(x) : x, res = k, pw = 1;
  for (int i = 0; i < mjNPOLY; i++) {
    pw *= y;
    res += (i + 2) * p[i] * pw;
  }
  return res;
}

// d^2(x c(x))/dx^2 = sum (i + 2)(i + 1) p_i y^i dy/dx, dy/dx = sign(x) when odd, 0 at the
// kink x = 0 (the mean of both sides, what centered differences see)
mjtNum mju_polyCurve(const mjtNum p[mjNPOLY], mjtNum x, int odd) {
  mjtNum y = odd ? fabs(x) : x, res = 0, pw = 1;
  for (int i = 0; i < mjNPOLY; i++) {
    res += (i + 2) * (i + 1) * p[i] * pw;
    pw *= y;
  }
  return !odd ? res : x > 0 ? res : x < 0 ? -res : 0;
}

// k y^2/2 + sum p_i y^(i+3)/(i+3)
mjtNum mju_polyPotential(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd) {
  mjtNum y = odd ? fabs(x) : x, res = 0.5 * k * (y * y), pw = y;
  for (int i = 0; i < mjNPOLY; i++) {
    pw *= y;
    res += p[i] / (i + 3) * (pw * y);
  }
  return res;
}
