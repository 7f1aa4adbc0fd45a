// inertia.c: volume, inertia and bounds of primitive shapes; combining inertias into a body's
// principal frame (symmetric 3x3 eigen-decomposition by Jacobi rotations).
#include "util/util.h"

#include <math.h>

// ---- volumes and inertias of solid primitives --------------------------------------------------

// volume: sphere 4/3 pi r^3, capsule pi r^2 (2h) + 4/3 pi r^3, ellipsoid 4/3 pi abc,
// cylinder pi r^2 (2h), box 8abc (sizes are radii and half-lengths)
mjtNum mju_geomVolume(int type, const mjtNum size[3]) {
  const mjtNum* s = size;
  switch (type) {
    case mjGEOM_SPHERE: return 4 * mjPI * s[0] * s[0] * s[0] / 3;
    case mjGEOM_CAPSULE: return mjPI * s[0] * s[0] * (2 * s[1] + 4 * s[0] / 3);
    case mjGEOM_ELLIPSOID: return 4 * mjPI * s[0] * s[1] * s[2] / 3;
    case mjGEOM_CYLINDER: return mjPI * s[0] * s[0] * 2 * s[1];
    case mjGEOM_BOX:
    case mjGEOM_HFIELD: return 8 * s[0] * s[1] * s[2];  // a height field as the box of its size
    default: return 0;
  }
}

// semi-axes of the ellipsoid that stands for a geom in the fluid model: a sphere's radius thrice,
// a capsule (r, r, h + r), a cylinder (r, r, h), any other type its first three sizes
void mju_geomSemiAxes(int type, const mjtNum size[3], mjtNum semi[3]) {
  switch (type) {
    case mjGEOM_SPHERE: semi[0] = semi[1] = semi[2] = size[0]; break;
    case mjGEOM_CAPSULE: semi[0] = semi[1] = size[0], semi[2] = size[1] + size[0]; break;
    case mjGEOM_CYLINDER: semi[0] = semi[1] = size[0], semi[2] = size[1]; break;
    default: mju_copy3(semi, size);
  }
}

// diagonal inertia about the center in the geom frame, for a uniform solid of mass `mass`
void mju_geomInertia(int type, const mjtNum size[3], mjtNum mass, mjtNum inertia[3]) {
  const mjtNum* s = size;
  mju_zero3(inertia);
  switch (type) {
    case mjGEOM_SPHERE:
      // 2/5 m r^2
      inertia[0] = inertia[1] = inertia[2] = 2 * mass * s[0] * s[0] / 5;
      break;
    case mjGEOM_CAPSULE: {
      // cylinder of length 2h plus two hemispheres (each mass ms/2, com 3r/8 from its base):
      // Iz = mc r^2/2 + ms 2r^2/5,  Ix = mc (r^2/4 + (2h)^2/12) + ms (2r^2/5 + h^2 + 3rh/4)
      mjtNum r = s[0], h = s[1];
      mjtNum vc = mjPI * r * r * 2 * h, vs = 4 * mjPI * r * r * r / 3;
      mjtNum mc = mass * vc / (vc + vs), ms = mass * vs / (vc + vs);
      inertia[2] = mc * r * r / 2 + ms * 2 * r * r / 5;
      inertia[0] = inertia[1] = mc * (r * r / 4 + h * h / 3) +
                                ms * (2 * r * r / 5 + h * h + 3 * r * h / 4);
      break;
    }
    case mjGEOM_ELLIPSOID:
      // m (b^2 + c^2)/5 and cyclic
      inertia[0] = mass * (s[1] * s[1] + s[2] * s[2]) / 5;
      inertia[1] = mass * (s[0] * s[0] + s[2] * s[2]) / 5;
      inertia[2] = mass * (s[0] * s[0] + s[1] * s[1]) / 5;
      break;
    case mjGEOM_CYLINDER:
      // Ix = m (3 r^2 + (2h)^2)/12, Iz = m r^2/2
      inertia[0] = inertia[1] = mass * (3 * s[0] * s[0] + 4 * s[1] * s[1]) / 12;
      inertia[2] = mass * s[0] * s[0] / 2;
      break;
    case mjGEOM_BOX:
    case mjGEOM_HFIELD:
      // m ((2b)^2 + (2c)^2)/12 = m (b^2 + c^2)/3 and cyclic
      inertia[0] = mass * (s[1] * s[1] + s[2] * s[2]) / 3;
      inertia[1] = mass * (s[0] * s[0] + s[2] * s[2]) / 3;
      inertia[2] = mass * (s[0] * s[0] + s[1] * s[1]) / 3;
      break;
    default:
      break;
  }
}

// ---- bounds ----------------------------------------------------------------------------------

// bounding sphere radius and box (center, half-sizes) in the geom frame; a plane is unbounded:
// rbound 0 and a box 1e10 wide below z = 0; mesh and height field bounds come from their data
void mju_geomBound(int type, const mjtNum size[3], mjtNum* rbound, mjtNum aabb[6]) {
  const mjtNum* s = size;
  mjtNum half[3] = {0, 0, 0};
  mju_zero(aabb, 6);
  *rbound = 0;
  switch (type) {
    case mjGEOM_PLANE:
      aabb[2] = -5e9;
      half[0] = half[1] = 1e10;
      half[2] = 5e9;
      break;
    case mjGEOM_SPHERE:
      half[0] = half[1] = half[2] = *rbound = s[0];
      break;
    case mjGEOM_CAPSULE:
      half[0] = half[1] = s[0];
      half[2] = *rbound = s[0] + s[1];
      break;
    case mjGEOM_ELLIPSOID:
      mju_copy3(half, s);
      *rbound = fmax(fmax(s[0], s[1]), s[2]);
      break;
    case mjGEOM_CYLINDER:
      half[0] = half[1] = s[0];
      half[2] = s[1];
      *rbound = sqrt(s[0] * s[0] + s[1] * s[1]);
      break;
    case mjGEOM_BOX:
      mju_copy3(half, s);
      *rbound = mju_norm3(s);
      break;
    default:
      break;
  }
  mju_copy3(aabb + 3, half);
}

// ---- eigen-decomposition ---------------------------------------------------------------------

// stopping tolerances relative to the matrix's largest entry, read from MuJoCo 3.14's
// WebAssembly build (its mju_eig3Tol and mjuu_eig3 take the tolerance as an argument and use
// max(tol, 4e-15)): the engine and the compiler's inertia matrices (fullinertia, combined
// inertias) pass 4e-15, the compiler's mesh frames 1e-7; the sort keeps the order of values
// within max(tol, 1e-12) of the largest entry
#define EIG_TOL 4e-15
#define EIG_TIE 1e-12
#define EIG_COARSE 1e-7

// the compiler's quaternion normalization (MuJoCo's mjuu_normvec): |q|^2 summed in order,
// nothing under 1e-14, else q / |q| (divided) unless |q| is within 1e-14 of 1
static void normalizeCompiler(mjtNum q[4]) {
  mjtNum n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (n2 < 1e-14) return;
  mjtNum n = sqrt(n2);
  if (fabs(n - 1) > 1e-14)
    for (int i = 0; i < 4; i++) q[i] /= n;
}

// largest off-diagonal |d_pq| of a symmetric 3x3 d: (p, q) and the remaining axis k
static void eigPivot(const mjtNum d[9], int* p, int* q, int* k) {
  mjtNum a01 = fabs(d[1]), a02 = fabs(d[2]), a12 = fabs(d[5]);
  if (a01 > a02 && a01 > a12) {
    *p = 0, *q = 1, *k = 2;
  } else if (a02 > a12) {
    *p = 0, *q = 2, *k = 1;
  } else {
    *p = 1, *q = 2, *k = 0;
  }
}

// quat = quat * (rotation about local axis k, cos and sin of half the angle chalf, shalf),
// normalized as the engine does (once, mju_normalize4) or as the compiler does (MuJoCo's
// mjuu_mulquat normalizes the product and its caller normalizes again)
static void eigRotate(mjtNum quat[4], int k, mjtNum chalf, mjtNum shalf, int compiler) {
  mjtNum r[4] = {chalf, 0, 0, 0};
  r[k + 1] = shalf;
  mju_mulQuat(quat, quat, r);
  if (!compiler) {
    mju_normalize4(quat);
    return;
  }
  normalizeCompiler(quat);
  normalizeCompiler(quat);
}

// mat = R diag(eigval) R': classical Jacobi (largest pivot, smallest rotation zeroing it) with
// the rotation accumulated in a quaternion, until the pivot is at most max(reltol, 4e-15) of
// the largest entry; then a bubble sort into decreasing order where values within
// max(reltol, 1e-12) of the largest entry keep their order, and swapping columns (i, i+1) is a
// +90 degree turn about the third local axis, so R stays a rotation.  The arithmetic is
// MuJoCo 3.14's, bit for bit (mesh frames, and the normals turned into them, depend on the
// last bits of the quaternion); compiler picks its compiler's normalization (eigRotate)
static int eigJacobi(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9],
                     mjtNum reltol, int compiler) {
  mjtNum d[9], tmp[9], scale = 0;
  int iter;
  for (int i = 0; i < 9; i++) scale = fmax(scale, fabs(mat[i]));
  mjtNum tol = fmax(reltol, EIG_TOL) * scale;
  mju_unit4(quat);
  for (iter = 0; iter < 500; iter++) {
    // d = R' mat R for the current R
    mju_quat2Mat(eigvec, quat);
    mju_mulMatTMat(tmp, eigvec, mat, 3, 3, 3);
    mju_mulMatMat(d, tmp, eigvec, 3, 3, 3);
    eigval[0] = d[0], eigval[1] = d[4], eigval[2] = d[8];

    // pivot; done when it is negligible
    int p, q, k;
    eigPivot(d, &p, &q, &k);
    mjtNum apq = d[3 * p + q];
    if (fabs(apq) <= tol) break;

    // 2x2 symmetric Schur: tau = (d_qq - d_pp)/(2 d_pq), t = tan(theta) the smaller root of
    // t^2 + 2 tau t - 1 = 0; the half angle from th = tan(theta/2) = t / (1 + sqrt(1 + t^2)):
    // cos(theta/2) = 1 / sqrt(1 + th^2), sin(theta/2) = th cos(theta/2)
    mjtNum tau = (d[4 * q] - d[4 * p]) / (2 * apq), root = sqrt(tau * tau + 1);
    mjtNum t = tau >= 0 ? 1 / (tau + root) : -1 / (root - tau);
    mjtNum th = t / (sqrt(t * t + 1) + 1), chalf = 1 / sqrt(th * th + 1);

    // J as a turn about local axis k: angle -theta for k = 0, 2 and +theta for k = 1
    eigRotate(quat, k, chalf, (k == 1 ? th : -th) * chalf, compiler);
  }

  // bubble sort, decreasing: compare (0,1), (1,2), (0,1); values equal to within the tie
  // tolerance keep their order; the turns use MuJoCo's cos45 constant
  const mjtNum cos45 = 0.707106781186548;
  mjtNum tie = fmax(reltol, EIG_TIE) * scale;
  for (int pass = 0; pass < 3; pass++) {
    int i = pass % 2;
    if (eigval[i] + tie < eigval[i + 1]) {
      mjtNum s = eigval[i];
      eigval[i] = eigval[i + 1];
      eigval[i + 1] = s;
      eigRotate(quat, (i + 2) % 3, cos45, cos45, compiler);
    }
  }
  mju_quat2Mat(eigvec, quat);
  return iter;
}

int mju_eig3(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]) {
  return eigJacobi(eigval, eigvec, quat, mat, EIG_TOL, 0);
}

int mju_eig3Coarse(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]) {
  return eigJacobi(eigval, eigvec, quat, mat, EIG_COARSE, 1);
}

// the principal frame of an inertia matrix as MuJoCo 3.14's compiler finds it
static int eig3Inertia(mjtNum eigval[3], mjtNum eigvec[9], mjtNum quat[4], const mjtNum mat[9]) {
  return eigJacobi(eigval, eigvec, quat, mat, EIG_TOL, 1);
}

// ---- combining inertias ----------------------------------------------------------------------

// full inertia (Ixx Iyy Izz Ixy Ixz Iyz) to principal quat and moments, as MuJoCo's compiler;
// 1 when the smallest moment is below mjMINMASS
int mju_fullInertia(const mjtNum full[6], mjtNum quat[4], mjtNum diag[3]) {
  mjtNum mat[9] = {full[0], full[3], full[4], full[3], full[1], full[5],
                   full[4], full[5], full[2]};
  mjtNum eigvec[9];
  eig3Inertia(diag, eigvec, quat, mat);
  return diag[2] < mjMINMASS;
}

// total mass, com = sum m_i p_i / M, and about the com
// I = sum R_i diag(I_i) R_i' + m_i (|d_i|^2 E - d_i d_i'), d_i = p_i - com, diagonalized;
// a single inertia keeps its own frame (no reordering of its moments)
void mju_combineInertia(int n, const mjtNum* mass, const mjtNum* pos, const mjtNum* quat,
                        const mjtNum* inertia, mjtNum* totmass, mjtNum pos_out[3],
                        mjtNum quat_out[4], mjtNum inertia_out[3]) {
  // single part: copy
  if (n == 1) {
    *totmass = mass[0];
    mju_copy3(pos_out, pos);
    mju_copy4(quat_out, quat);
    mju_copy3(inertia_out, inertia);
    return;
  }

  // mass and center of mass
  mjtNum mtot = 0;
  mju_zero3(pos_out);
  for (int i = 0; i < n; i++) {
    mtot += mass[i];
    mju_addToScl3(pos_out, pos + 3 * i, mass[i]);
  }
  *totmass = mtot;
  if (mtot < mjMINVAL) {
    mju_zero3(pos_out);
    mju_unit4(quat_out);
    mju_zero3(inertia_out);
    return;
  }
  mju_scl3(pos_out, pos_out, 1 / mtot);

  // full inertia about the com
  mjtNum full[9] = {0};
  for (int i = 0; i < n; i++) {
    // rotated diagonal: R diag(I) R'
    mjtNum r[9];
    mju_quat2Mat(r, quat + 4 * i);
    const mjtNum* in = inertia + 3 * i;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        for (int k = 0; k < 3; k++) full[3 * a + b] += r[3 * a + k] * in[k] * r[3 * b + k];

    // parallel axis: m (|d|^2 E - d d')
    mjtNum dv[3];
    mju_sub3(dv, pos + 3 * i, pos_out);
    mjtNum dd = mju_dot3(dv, dv);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) full[3 * a + b] += mass[i] * ((a == b) * dd - dv[a] * dv[b]);
  }

  // principal frame
  mjtNum eigvec[9];
  eig3Inertia(inertia_out, eigvec, quat_out, full);
}
