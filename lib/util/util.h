// util.h: pure math of the engine (mju_ prefix): vectors, matrices, quaternions, poses,
// spatial algebra, and the inertia of primitive shapes.
//
// Conventions:
//   - every number is an mjtNum (double); matrices are row-major, a 3x3 rotation is mat[9];
//   - a quaternion is (w, x, y, z), unit when it represents a rotation;
//   - a spatial 6-vector is (rotation, translation): motion (angular, linear velocity),
//     force (torque, force);
//   - res may alias any input unless the comment says otherwise ("no alias").
//
// Implemented in util_blas.c (vectors, matrices), util_spatial.c (quaternions, poses, spatial
// algebra) and inertia.c (shapes and mass properties); the small kernels of the inner loops
// (vector arithmetic, 3x3 and quaternion products, spatial cross products) are defined at the
// end of this header, static inline, so that the compiler inlines them into the pipeline's loops
// (a call costs more than the arithmetic of a 3-vector; results are the same to the bit).
#ifndef MJ_UTIL_H
#define MJ_UTIL_H

#include <math.h>
#include <string.h>

#include "mj.h"

#define mjPI     3.14159265358979323846
#define mjMINVAL 1e-15  // smallest value treated as nonzero in divisions and normalizations

// a function built twice, for the baseline (SSE2) and for AVX2, one chosen when the program
// loads by the processor it runs on (GCC's function multiversioning on x86-64 GNU/Linux):
// twice the numbers an instruction, the same arithmetic (no fused multiply-adds), so the
// same results to the bit either way
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define mjuVECTOR __attribute__((target_clones("avx2", "default")))
#else
#define mjuVECTOR
#endif

// ---- n-vectors (util_blas.c) -------------------------------------------------------------------
void mju_zero(mjtNum* res, int n);                                   // res = 0
void mju_copy(mjtNum* res, const mjtNum* vec, int n);  // res = vec (memmove: may overlap)
mjtNum mju_norm(const mjtNum* vec, int n);                           // |vec|
mjtNum mju_normalize(mjtNum* vec, int n);  // vec /= |vec|, returns |vec|; tiny: e_0, returns it
int mju_isZero(const mjtNum* vec, int n);                            // 1 when vec == 0

// ---- 3-vectors (util_blas.c) -------------------------------------------------------------------
mjtNum mju_dist3(const mjtNum a[3], const mjtNum b[3]);              // |a - b|

// ---- matrices, row-major (util_blas.c) ---------------------------------------------------------
// res(nr) = mat(nr x nc) * vec(nc)
void mju_mulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
// res(nc) = mat(nr x nc)' * vec(nr)
void mju_mulMatTVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
// the same when row r is zero past its first len[r] columns (len NULL: none is); a row whose
// vec entry is not finite is taken whole, so that its zeros give NaN as in mju_mulMatTVec
void mju_mulMatTVecLen(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc,
                       const int* len);
// res(r1 x c2) = a(r1 x c1) * b(c1 x c2); no alias
void mju_mulMatMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2);
// res(r1 x r2) = a(r1 x c1) * b(r2 x c1)'; no alias
void mju_mulMatMatT(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int r2);
// res(c1 x c2) = a(r1 x c1)' * b(r1 x c2); no alias
void mju_mulMatTMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2);
// res(nc x nr) = mat(nr x nc)'; no alias
void mju_transpose(mjtNum* res, const mjtNum* mat, int nr, int nc);
// vec1' * mat(n x n) * vec2
mjtNum mju_mulVecMatVec(const mjtNum* vec1, const mjtNum* mat, const mjtNum* vec2, int n);

// ---- quaternions and rotations (util_spatial.c) ------------------------------------------------
void mju_mat2Quat(mjtNum quat[4], const mjtNum mat[9]);           // unit quat of a rotation
void mju_axisAngle2Quat(mjtNum res[4], const mjtNum axis[3], mjtNum angle);  // unit axis
// the minimal rotation taking +z to vec (compiler convention: near-parallel within 1e-7 is
// identity, near-antiparallel is 180 degrees about x)
void mju_quatZ2Vec(mjtNum quat[4], const mjtNum vec[3]);
// res = rotation vector (axis*angle) of the unit quat, angle in [-pi, pi]
void mju_quat2Vel(mjtNum res[3], const mjtNum quat[4], mjtNum dt);
// res = rotation vector taking qb to qa: qb * quat(res) = qa
void mju_subQuat(mjtNum res[3], const mjtNum qa[4], const mjtNum qb[4]);
// quat = quat * exp(vel*scl/2), normalized: integrate an angular velocity in the local frame
void mju_quatIntegrate(mjtNum quat[4], const mjtNum vel[3], mjtNum scl);

// ---- poses (util_spatial.c) --------------------------------------------------------------------
// (posres, quatres) = (pos1, quat1) * (pos2, quat2)
void mju_mulPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos1[3],
                 const mjtNum quat1[4], const mjtNum pos2[3], const mjtNum quat2[4]);
// (posres, quatres) = inverse of (pos, quat)
void mju_negPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos[3],
                 const mjtNum quat[4]);

// ---- spatial algebra, 6-vectors (rotation, translation) (util_spatial.c) ---------------------
// res = the 6-vector vec expressed at newpos (moved from oldpos): rot/trn shift for motion
// (flg_force 0) or force (flg_force 1); optional rotation rotnew2old (NULL: none)
void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                          const mjtNum newpos[3], const mjtNum oldpos[3],
                          const mjtNum rotnew2old[9]);

// ---- polynomial springs and dampers (util_blas.c) ----------------------------------------------
// A spring or damper of linear coefficient k and higher terms p[mjNPOLY] pulls with
// f(x) = -x c(x), c(x) = k + p0 y + p1 y^2, where y = x (springs) or |x| (odd: dampers, so
// that f stays odd in x).
// c(x)
mjtNum mju_polyCoef(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd);
// the slope -df/dx = d(x c(x))/dx = k + 2 p0 y + 3 p1 y^2
mjtNum mju_polySlope(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd);
// the slope's own slope d^2(x c(x))/dx^2 = (2 p0 + 6 p1 y) dy/dx (odd: 0 at x = 0, its kink)
mjtNum mju_polyCurve(const mjtNum p[mjNPOLY], mjtNum x, int odd);
// the potential integral_0^x t c(t) dt = k y^2/2 + p0 y^3/3 + p1 y^4/4
mjtNum mju_polyPotential(mjtNum k, const mjtNum p[mjNPOLY], mjtNum x, int odd);

// ---- inertia of shapes and bodies (inertia.c) --------------------------------------------------
// the smallest mass and principal moment MuJoCo's compiler accepts (its mjEPS)
#define mjMINMASS 1e-14
// volume of a primitive geom (sphere, capsule, ellipsoid, cylinder, box); 0 for others
mjtNum mju_geomVolume(int type, const mjtNum size[3]);
// semi-axes of the ellipsoid standing for a geom in the fluid model (sphere, capsule, cylinder
// from their radius and half length; others their sizes)
void mju_geomSemiAxes(int type, const mjtNum size[3], mjtNum semi[3]);
// diagonal inertia of a solid primitive of mass `mass` about its center in its own frame
void mju_geomInertia(int type, const mjtNum size[3], mjtNum mass, mjtNum inertia[3]);
// n point inertias (mass, pos[3], quat[4], diag inertia[3] each, in one frame) combined into
// total mass, center of mass and principal frame (quat_out) with principal moments
void mju_combineInertia(int n, const mjtNum* mass, const mjtNum* pos, const mjtNum* quat,
                        const mjtNum* inertia, mjtNum* totmass, mjtNum pos_out[3],
                        mjtNum quat_out[4], mjtNum inertia_out[3]);
// full inertia (Ixx Iyy Izz Ixy Ixz Iyz) to principal frame quat and moments diag;
// returns nonzero when a moment is below mjMINMASS (MuJoCo's compiler refuses it so)
int mju_fullInertia(const mjtNum full[6], mjtNum quat[4], mjtNum diag[3]);
// eigen-decomposition of a symmetric 3x3 mat: mat = R diag(eigval) R', R = quat2Mat(quat),
// eigenvalues in decreasing order, R right-handed, converged to round-off (pivots down to
// 4e-15 of the largest entry) in MuJoCo 3.14's arithmetic; returns the number of sweeps used
int mju_eig3(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]);
// the same, stopped where MuJoCo 3.14's compiler stops for the principal frames of meshes (a
// pivot at most 1e-7 of the largest entry) and in its compiler's arithmetic, bit for bit
int mju_eig3Coarse(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]);
// bounding sphere radius and axis-aligned box (center[3], half-size[3]) in the geom frame
void mju_geomBound(int type, const mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]);

// ---- inline kernels: n-, 3- and 4-vectors, 3x3 matrices ---------------------------------------

// fmax(x, c) for c neither NaN nor zero, without the call into libm: the same value for every x
// (a NaN x gives c; at x == c the two are the same number)
static inline mjtNum mju_maxc(mjtNum x, mjtNum c) { return x > c ? x : c; }

// fmin(x, c) for c neither NaN nor zero, without the call into libm (as mju_maxc)
static inline mjtNum mju_minc(mjtNum x, mjtNum c) { return x < c ? x : c; }

// res = val
static inline void mju_fill(mjtNum* res, mjtNum val, int n) {
  for (int i = 0; i < n; i++) res[i] = val;
}

// res = vec*scl, two entries at a time (paired as in mju_addTo)
static inline void mju_scl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    mjtNum r0 = vec[i] * scl, r1 = vec[i + 1] * scl;
    res[i] = r0;
    res[i + 1] = r1;
  }
  if (i < n) res[i] = vec[i] * scl;
}

// res = a + b
static inline void mju_add(mjtNum* res, const mjtNum* a, const mjtNum* b, int n) {
  for (int i = 0; i < n; i++) res[i] = a[i] + b[i];
}

// res = a - b
static inline void mju_sub(mjtNum* res, const mjtNum* a, const mjtNum* b, int n) {
  for (int i = 0; i < n; i++) res[i] = a[i] - b[i];
}

// res += vec, two entries at a time (both read before either is written, so that gcc -O2
// turns each pair into one SSE2 operation)
static inline void mju_addTo(mjtNum* res, const mjtNum* vec, int n) {
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    mjtNum r0 = res[i] + vec[i], r1 = res[i + 1] + vec[i + 1];
    res[i] = r0;
    res[i + 1] = r1;
  }
  if (i < n) res[i] += vec[i];
}

// res -= vec
static inline void mju_subFrom(mjtNum* res, const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) res[i] -= vec[i];
}

// res += vec*scl, two entries at a time (paired as in mju_addTo)
static inline void mju_addToScl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n) {
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    mjtNum r0 = res[i] + vec[i] * scl, r1 = res[i + 1] + vec[i + 1] * scl;
    res[i] = r0;
    res[i + 1] = r1;
  }
  if (i < n) res[i] += vec[i] * scl;
}

// res = a + b*scl
static inline void mju_addScl(mjtNum* res, const mjtNum* a, const mjtNum* b, mjtNum scl, int n) {
  for (int i = 0; i < n; i++) res[i] = a[i] + b[i] * scl;
}

// a'*b: four partial sums over i mod 4, combined as (s0 + s2) + (s1 + s3), then the
// remaining n mod 4 terms in order (the pairs (s0, s1) and (s2, s3) vectorize)
static inline mjtNum mju_dot(const mjtNum* a, const mjtNum* b, int n) {
  mjtNum s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  mjtNum s = (s0 + s2) + (s1 + s3);
  // the 0 to 3 left, in order, unrolled (a loop's overhead would cost as much as the terms)
  if (i < n) s += a[i] * b[i];
  if (i + 1 < n) s += a[i + 1] * b[i + 1];
  if (i + 2 < n) s += a[i + 2] * b[i + 2];
  return s;
}

// res = 0
static inline void mju_zero3(mjtNum res[3]) { res[0] = res[1] = res[2] = 0; }

// res = vec
static inline void mju_copy3(mjtNum res[3], const mjtNum vec[3]) {
  res[0] = vec[0];
  res[1] = vec[1];
  res[2] = vec[2];
}

// res = vec*scl
static inline void mju_scl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  res[0] = vec[0] * scl;
  res[1] = vec[1] * scl;
  res[2] = vec[2] * scl;
}

// res = a + b
static inline void mju_add3(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]) {
  res[0] = a[0] + b[0];
  res[1] = a[1] + b[1];
  res[2] = a[2] + b[2];
}

// res = a - b
static inline void mju_sub3(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]) {
  res[0] = a[0] - b[0];
  res[1] = a[1] - b[1];
  res[2] = a[2] - b[2];
}

// res += vec
static inline void mju_addTo3(mjtNum res[3], const mjtNum vec[3]) {
  res[0] += vec[0];
  res[1] += vec[1];
  res[2] += vec[2];
}

// res += vec*scl
static inline void mju_addToScl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl) {
  res[0] += vec[0] * scl;
  res[1] += vec[1] * scl;
  res[2] += vec[2] * scl;
}

// a'*b
static inline mjtNum mju_dot3(const mjtNum a[3], const mjtNum b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// |vec|
static inline mjtNum mju_norm3(const mjtNum vec[3]) { return sqrt(mju_dot3(vec, vec)); }

// res = a x b (temporaries first, so res may alias a or b)
static inline void mju_cross(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]) {
  mjtNum c0 = a[1] * b[2] - a[2] * b[1];
  mjtNum c1 = a[2] * b[0] - a[0] * b[2];
  mjtNum c2 = a[0] * b[1] - a[1] * b[0];
  res[0] = c0;
  res[1] = c1;
  res[2] = c2;
}

// vec /= |vec|, returns |vec|; too short: (1, 0, 0)
static inline mjtNum mju_normalize3(mjtNum vec[3]) {
  mjtNum norm = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
  if (norm < mjMINVAL) {
    vec[0] = 1;
    vec[1] = vec[2] = 0;
  } else {
    mjtNum s = 1 / norm;
    vec[0] *= s;
    vec[1] *= s;
    vec[2] *= s;
  }
  return norm;
}

// res = 0
static inline void mju_zero4(mjtNum res[4]) { res[0] = res[1] = res[2] = res[3] = 0; }

// res = identity quaternion
static inline void mju_unit4(mjtNum res[4]) {
  res[0] = 1;
  res[1] = res[2] = res[3] = 0;
}

// res = vec
static inline void mju_copy4(mjtNum res[4], const mjtNum vec[4]) {
  res[0] = vec[0];
  res[1] = vec[1];
  res[2] = vec[2];
  res[3] = vec[3];
}

// vec /= |vec|, returns |vec|; too short: the identity quaternion (1, 0, 0, 0); within 1e-15
// of unit length: left as it is (as MuJoCo does: a pose stays bit for bit where it was)
static inline mjtNum mju_normalize4(mjtNum vec[4]) {
  mjtNum norm = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2] + vec[3] * vec[3]);
  if (norm < mjMINVAL) {
    mju_unit4(vec);
  } else if (fabs(norm - 1) > mjMINVAL) {
    mjtNum s = 1 / norm;
    vec[0] *= s;
    vec[1] *= s;
    vec[2] *= s;
    vec[3] *= s;
  }
  return norm;
}

// 6-vector kernels (spatial vectors), written out so that they need no loop and compile to
// three paired (SSE2) operations: the paired loads of vector code that follows then read whole
// stores (a load spanning two narrower stores stalls)

// res = vec
static inline void mju_copy6(mjtNum res[6], const mjtNum vec[6]) {
  mjtNum r0 = vec[0], r1 = vec[1], r2 = vec[2], r3 = vec[3], r4 = vec[4], r5 = vec[5];
  res[0] = r0, res[1] = r1, res[2] = r2, res[3] = r3, res[4] = r4, res[5] = r5;
}

// res += vec
static inline void mju_addTo6(mjtNum res[6], const mjtNum vec[6]) {
  mjtNum r0 = res[0] + vec[0], r1 = res[1] + vec[1], r2 = res[2] + vec[2];
  mjtNum r3 = res[3] + vec[3], r4 = res[4] + vec[4], r5 = res[5] + vec[5];
  res[0] = r0, res[1] = r1, res[2] = r2, res[3] = r3, res[4] = r4, res[5] = r5;
}

// res += vec*scl
static inline void mju_addToScl6(mjtNum res[6], const mjtNum vec[6], mjtNum scl) {
  mjtNum r0 = res[0] + vec[0] * scl, r1 = res[1] + vec[1] * scl, r2 = res[2] + vec[2] * scl;
  mjtNum r3 = res[3] + vec[3] * scl, r4 = res[4] + vec[4] * scl, r5 = res[5] + vec[5] * scl;
  res[0] = r0, res[1] = r1, res[2] = r2, res[3] = r3, res[4] = r4, res[5] = r5;
}

// a'*b, added in the order of mju_dot(a, b, 6)
static inline mjtNum mju_dot6(const mjtNum a[6], const mjtNum b[6]) {
  mjtNum s = (a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3]);
  return s + a[4] * b[4] + a[5] * b[5];
}

// res = mat (3x3)
static inline void mju_copy9(mjtNum res[9], const mjtNum mat[9]) {
  for (int i = 0; i < 9; i++) res[i] = mat[i];
}

// res = mat * vec (3x3; temporaries first, so res may alias vec)
static inline void mju_mulMatVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  mjtNum r0 = mat[0] * vec[0] + mat[1] * vec[1] + mat[2] * vec[2];
  mjtNum r1 = mat[3] * vec[0] + mat[4] * vec[1] + mat[5] * vec[2];
  mjtNum r2 = mat[6] * vec[0] + mat[7] * vec[1] + mat[8] * vec[2];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

// res = mat' * vec (3x3; res may alias vec)
static inline void mju_mulMatTVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]) {
  mjtNum r0 = mat[0] * vec[0] + mat[3] * vec[1] + mat[6] * vec[2];
  mjtNum r1 = mat[1] * vec[0] + mat[4] * vec[1] + mat[7] * vec[2];
  mjtNum r2 = mat[2] * vec[0] + mat[5] * vec[1] + mat[8] * vec[2];
  res[0] = r0;
  res[1] = r1;
  res[2] = r2;
}

// ---- inline kernels: quaternions and spatial algebra -------------------------------------------

// res = a * b (Hamilton product; temporaries first, so res may alias a or b)
static inline void mju_mulQuat(mjtNum res[4], const mjtNum a[4], const mjtNum b[4]) {
  mjtNum w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  mjtNum x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  mjtNum y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  mjtNum z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  res[0] = w;
  res[1] = x;
  res[2] = y;
  res[3] = z;
}

// res = conjugate of quat (the inverse rotation of a unit quaternion)
static inline void mju_negQuat(mjtNum res[4], const mjtNum quat[4]) {
  res[0] = quat[0];
  res[1] = -quat[1];
  res[2] = -quat[2];
  res[3] = -quat[3];
}

// res = R(q) vec = vec + 2 w (u x vec) + 2 u x (u x vec), u = (x, y, z); res may alias vec
static inline void mju_rotVecQuat(mjtNum res[3], const mjtNum vec[3], const mjtNum quat[4]) {
  // identity rotation or zero vector: exact copy
  if ((quat[0] == 1 && !quat[1] && !quat[2] && !quat[3]) || (!vec[0] && !vec[1] && !vec[2])) {
    mju_copy3(res, vec);
    return;
  }
  // t = 2 u x vec, res = vec + w t + u x t
  const mjtNum* u = quat + 1;
  mjtNum t[3], ut[3];
  mju_cross(t, u, vec);
  mju_scl3(t, t, 2);
  mju_cross(ut, u, t);
  for (int i = 0; i < 3; i++) res[i] = vec[i] + quat[0] * t[i] + ut[i];
}

// rotation matrix of a unit quaternion (homogeneous form: w^2 + x^2 - y^2 - z^2 on the diagonal)
static inline void mju_quat2Mat(mjtNum res[9], const mjtNum q[4]) {
  // identity: exact
  if (q[0] == 1 && !q[1] && !q[2] && !q[3]) {
    res[0] = res[4] = res[8] = 1;
    res[1] = res[2] = res[3] = res[5] = res[6] = res[7] = 0;
    return;
  }
  // products of the components
  mjtNum ww = q[0] * q[0], xx = q[1] * q[1], yy = q[2] * q[2], zz = q[3] * q[3];
  mjtNum wx = q[0] * q[1], wy = q[0] * q[2], wz = q[0] * q[3];
  mjtNum xy = q[1] * q[2], xz = q[1] * q[3], yz = q[2] * q[3];
  res[0] = ww + xx - yy - zz;
  res[4] = ww - xx + yy - zz;
  res[8] = ww - xx - yy + zz;
  res[1] = 2 * (xy - wz);
  res[2] = 2 * (xz + wy);
  res[3] = 2 * (xy + wz);
  res[5] = 2 * (yz - wx);
  res[6] = 2 * (xz - wy);
  res[7] = 2 * (yz + wx);
}

// res = vec x mot, vec = (w, v), mot = (w2, v2): (w x w2, w x v2 + v x w2); no alias
static inline void mju_crossMotion(mjtNum res[6], const mjtNum vec[6], const mjtNum mot[6]) {
  mjtNum t[3];
  mju_cross(res, vec, mot);
  mju_cross(res + 3, vec, mot + 3);
  mju_cross(t, vec + 3, mot);
  mju_addTo3(res + 3, t);
}

// res = vec x* frc, vec = (w, v), frc = (t, f): (w x t + v x f, w x f); no alias
static inline void mju_crossForce(mjtNum res[6], const mjtNum vec[6], const mjtNum frc[6]) {
  mjtNum t[3];
  mju_cross(res, vec, frc);
  mju_cross(t, vec + 3, frc + 3);
  mju_addTo3(res, t);
  mju_cross(res + 3, vec, frc + 3);
}

// res = cinert * vec: (I w + h x v, m v - h x w), I = inert[0..5] about the frame origin,
// h = inert[6..8] = m * com offset, m = inert[9]; no alias
static inline void mju_mulInertVec(mjtNum res[6], const mjtNum i[10], const mjtNum v[6]) {
  const mjtNum* h = i + 6;
  res[0] = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] + h[1] * v[5] - h[2] * v[4];
  res[1] = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + h[2] * v[3] - h[0] * v[5];
  res[2] = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] + h[0] * v[4] - h[1] * v[3];
  res[3] = i[9] * v[3] - (h[1] * v[2] - h[2] * v[1]);
  res[4] = i[9] * v[4] - (h[2] * v[0] - h[0] * v[2]);
  res[5] = i[9] * v[5] - (h[0] * v[1] - h[1] * v[0]);
}

#endif
