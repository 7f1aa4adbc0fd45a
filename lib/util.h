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
// algebra) and inertia.c (shapes and mass properties).
#ifndef MJ_UTIL_H
#define MJ_UTIL_H

#include "mj.h"

#define mjPI     3.14159265358979323846
#define mjMINVAL 1e-15  // smallest value treated as nonzero in divisions and normalizations

// ---- n-vectors (util_blas.c) -------------------------------------------------------------------
void mju_zero(mjtNum* res, int n);                                   // res = 0
void mju_fill(mjtNum* res, mjtNum val, int n);                       // res = val
void mju_copy(mjtNum* res, const mjtNum* vec, int n);                // res = vec
void mju_scl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n);     // res = vec*scl
void mju_add(mjtNum* res, const mjtNum* a, const mjtNum* b, int n);  // res = a + b
void mju_sub(mjtNum* res, const mjtNum* a, const mjtNum* b, int n);  // res = a - b
void mju_addTo(mjtNum* res, const mjtNum* vec, int n);               // res += vec
void mju_subFrom(mjtNum* res, const mjtNum* vec, int n);             // res -= vec
void mju_addToScl(mjtNum* res, const mjtNum* vec, mjtNum scl, int n);  // res += vec*scl
void mju_addScl(mjtNum* res, const mjtNum* a, const mjtNum* b,         // res = a + b*scl
                mjtNum scl, int n);
mjtNum mju_dot(const mjtNum* a, const mjtNum* b, int n);             // a'*b
mjtNum mju_norm(const mjtNum* vec, int n);                           // |vec|
mjtNum mju_normalize(mjtNum* vec, int n);  // vec /= |vec|, returns |vec|; tiny: e_0, returns it

// ---- 3-vectors (util_blas.c) -------------------------------------------------------------------
void mju_zero3(mjtNum res[3]);
void mju_copy3(mjtNum res[3], const mjtNum vec[3]);
void mju_scl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl);
void mju_add3(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]);
void mju_sub3(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]);
void mju_addTo3(mjtNum res[3], const mjtNum vec[3]);
void mju_addToScl3(mjtNum res[3], const mjtNum vec[3], mjtNum scl);
mjtNum mju_dot3(const mjtNum a[3], const mjtNum b[3]);
mjtNum mju_norm3(const mjtNum vec[3]);
mjtNum mju_dist3(const mjtNum a[3], const mjtNum b[3]);              // |a - b|
mjtNum mju_normalize3(mjtNum vec[3]);  // vec /= |vec|, returns |vec|; tiny: (1,0,0)
void mju_cross(mjtNum res[3], const mjtNum a[3], const mjtNum b[3]);  // res = a x b

// ---- 4-vectors (util_blas.c) -------------------------------------------------------------------
void mju_zero4(mjtNum res[4]);
void mju_unit4(mjtNum res[4]);                                       // res = (1, 0, 0, 0)
void mju_copy4(mjtNum res[4], const mjtNum vec[4]);
mjtNum mju_normalize4(mjtNum vec[4]);  // vec /= |vec|, returns |vec|; tiny: (1,0,0,0)

// ---- matrices, row-major (util_blas.c) ---------------------------------------------------------
// res(nr) = mat(nr x nc) * vec(nc)
void mju_mulMatVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
// res(nc) = mat(nr x nc)' * vec(nr)
void mju_mulMatTVec(mjtNum* res, const mjtNum* mat, const mjtNum* vec, int nr, int nc);
// res(r1 x c2) = a(r1 x c1) * b(c1 x c2); no alias
void mju_mulMatMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2);
// res(r1 x r2) = a(r1 x c1) * b(r2 x c1)'; no alias
void mju_mulMatMatT(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int r2);
// res(c1 x c2) = a(r1 x c1)' * b(r1 x c2); no alias
void mju_mulMatTMat(mjtNum* res, const mjtNum* a, const mjtNum* b, int r1, int c1, int c2);
// res(nc x nr) = mat(nr x nc)'; no alias
void mju_transpose(mjtNum* res, const mjtNum* mat, int nr, int nc);
// res = mat * vec and res = mat' * vec for a 3x3 matrix
void mju_mulMatVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]);
void mju_mulMatTVec3(mjtNum res[3], const mjtNum mat[9], const mjtNum vec[3]);
// vec1' * mat(n x n) * vec2
mjtNum mju_mulVecMatVec(const mjtNum* vec1, const mjtNum* mat, const mjtNum* vec2, int n);

// ---- quaternions and rotations (util_spatial.c) ------------------------------------------------
void mju_mulQuat(mjtNum res[4], const mjtNum a[4], const mjtNum b[4]);  // res = a * b
void mju_negQuat(mjtNum res[4], const mjtNum quat[4]);  // res = conjugate = inverse rotation
void mju_rotVecQuat(mjtNum res[3], const mjtNum vec[3], const mjtNum quat[4]);  // R(q) vec
void mju_quat2Mat(mjtNum res[9], const mjtNum quat[4]);           // rotation matrix of quat
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
// res = vec x mot: the motion cross product (velocity derivative of a motion vector)
void mju_crossMotion(mjtNum res[6], const mjtNum vec[6], const mjtNum mot[6]);
// res = vec x* frc: the force cross product
void mju_crossForce(mjtNum res[6], const mjtNum vec[6], const mjtNum frc[6]);
// res = cinert * vec, cinert = (Ixx Iyy Izz Ixy Ixz Iyz, m*c, m) com-offset spatial inertia
void mju_mulInertVec(mjtNum res[6], const mjtNum inert[10], const mjtNum vec[6]);
// res = the 6-vector vec expressed at newpos (moved from oldpos): rot/trn shift for motion
// (flg_force 0) or force (flg_force 1); optional rotation rotnew2old (NULL: none)
void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                          const mjtNum newpos[3], const mjtNum oldpos[3],
                          const mjtNum rotnew2old[9]);

// ---- inertia of shapes and bodies (inertia.c) --------------------------------------------------
// volume of a primitive geom (sphere, capsule, ellipsoid, cylinder, box); 0 for others
mjtNum mju_geomVolume(int type, const mjtNum size[3]);
// diagonal inertia of a solid primitive of mass `mass` about its center in its own frame
void mju_geomInertia(int type, const mjtNum size[3], mjtNum mass, mjtNum inertia[3]);
// n point inertias (mass, pos[3], quat[4], diag inertia[3] each, in one frame) combined into
// total mass, center of mass and principal frame (quat_out) with principal moments
void mju_combineInertia(int n, const mjtNum* mass, const mjtNum* pos, const mjtNum* quat,
                        const mjtNum* inertia, mjtNum* totmass, mjtNum pos_out[3],
                        mjtNum quat_out[4], mjtNum inertia_out[3]);
// full inertia (Ixx Iyy Izz Ixy Ixz Iyz) to principal frame quat and moments diag;
// returns nonzero when the matrix is not positive definite
int mju_fullInertia(const mjtNum full[6], mjtNum quat[4], mjtNum diag[3]);
// eigen-decomposition of a symmetric 3x3 mat: mat = R diag(eigval) R', R = quat2Mat(quat),
// eigenvalues in decreasing order, R right-handed; returns the number of sweeps used
int mju_eig3(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]);
// bounding sphere radius and axis-aligned box (center[3], half-size[3]) in the geom frame
void mju_geomBound(int type, const mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]);

#endif
