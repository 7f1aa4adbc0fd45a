// t/unit/util/inertia.c: primitive inertias, bounds and body principal frames (lib/util/inertia.c).
// Oracle numbers come from MuJoCo 3.5.1 (npm `mujoco`) on the XML quoted next to them; the
// combined boxes, fullinertia and the coarse mesh frame from MuJoCo 3.14.0 (npm `@mujoco/mujoco`).
#include <criterion/criterion.h>
#include <math.h>

#include "util/util.h"

// |a - b| <= tol * max(1, |b|) for n numbers
static void near(const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++)
    cr_assert(fabs(a[i] - b[i]) <= tol * fmax(1, fabs(b[i])), "element %d: %.17g vs %.17g", i,
              a[i], b[i]);
}

// oracle body_mass and body_inertia of one-geom bodies:
//   <body><geom type="capsule" size="0.1 0.3" mass="1"/></body>
//                                          .047772727272727272 (x2) .0048181818181818187
//   <body><geom type="capsule" size="0.1 0.3"/></body>   mass 23.038346126325152,
//                                          1.1006046263076243 (x2) .11100294042683936
//   <body><geom type="cylinder" size="0.1 0.3" mass="1"/></body>  .0325 .0325 .005
//   <body><geom type="ellipsoid" size="0.1 0.3 0.2" mass="1"/></body>  .026 .01 .02
//   <body><geom type="box" size="0.1 0.3 0.2" mass="1"/></body>  .043333.. .016666.. .033333..
//   <body><geom type="sphere" size="0.1" mass="1"/></body>  .004 (x3)
Test(inertia, primitives) {
  mjtNum in[3], cap[3] = {0.1, 0.3, 0}, e[3] = {0.1, 0.3, 0.2}, sph[3] = {0.1, 0, 0};
  mju_geomInertia(mjGEOM_CAPSULE, cap, 1, in);
  near(in, (mjtNum[]){0.047772727272727272, 0.047772727272727272, 0.0048181818181818187}, 3,
       1e-14);
  mjtNum mass = 1000 * mju_geomVolume(mjGEOM_CAPSULE, cap);
  cr_assert(fabs(mass - 23.038346126325152) < 1e-13);
  mju_geomInertia(mjGEOM_CAPSULE, cap, mass, in);
  near(in, (mjtNum[]){1.1006046263076243, 1.1006046263076243, 0.11100294042683936}, 3, 1e-14);
  mju_geomInertia(mjGEOM_CYLINDER, cap, 1, in);
  near(in, (mjtNum[]){0.0325, 0.0325, 0.005}, 3, 1e-15);
  mju_geomInertia(mjGEOM_ELLIPSOID, e, 1, in);
  near(in, (mjtNum[]){0.026, 0.01, 0.02}, 3, 1e-15);
  mju_geomInertia(mjGEOM_BOX, e, 1, in);
  near(in, (mjtNum[]){0.13 / 3, 0.05 / 3, 0.1 / 3}, 3, 1e-15);
  mju_geomInertia(mjGEOM_SPHERE, sph, 1, in);
  near(in, (mjtNum[]){0.004, 0.004, 0.004}, 3, 1e-15);
}

// oracle geom_rbound and geom_aabb: capsule size .1 (fromto length 1): .6, (0 0 0 .1 .1 .6);
// box 1 2 3: 3.7416573867739413, (0 0 0 1 2 3); plane: 0, (0 0 -5e9 1e10 1e10 5e9)
Test(inertia, bounds) {
  mjtNum r, aabb[6];
  mju_geomBound(mjGEOM_CAPSULE, (mjtNum[]){0.1, 0.5, 0}, &r, aabb);
  cr_assert_eq(r, 0.6);
  near(aabb, (mjtNum[]){0, 0, 0, 0.1, 0.1, 0.6}, 6, 0);
  mju_geomBound(mjGEOM_BOX, (mjtNum[]){1, 2, 3}, &r, aabb);
  cr_assert(fabs(r - 3.7416573867739413) < 1e-15);
  near(aabb, (mjtNum[]){0, 0, 0, 1, 2, 3}, 6, 0);
  mju_geomBound(mjGEOM_PLANE, (mjtNum[]){1, 2, 3}, &r, aabb);
  cr_assert_eq(r, 0);
  near(aabb, (mjtNum[]){0, 0, -5e9, 1e10, 1e10, 5e9}, 6, 0);
}

// a quaternion for euler="a b c" (degrees, MuJoCo's default intrinsic xyz sequence)
static void euler(mjtNum q[4], mjtNum a, mjtNum b, mjtNum c) {
  mjtNum qx[4], qy[4], qz[4];
  mju_axisAngle2Quat(qx, (mjtNum[]){1, 0, 0}, a * mjPI / 180);
  mju_axisAngle2Quat(qy, (mjtNum[]){0, 1, 0}, b * mjPI / 180);
  mju_axisAngle2Quat(qz, (mjtNum[]){0, 0, 1}, c * mjPI / 180);
  mju_mulQuat(q, qx, qy);
  mju_mulQuat(q, q, qz);
}

// combine boxes of size (bx, by, bz) and mass m at pos with quat; compare with the oracle
static void boxes(int n, const mjtNum* size, const mjtNum* mass, const mjtNum* pos,
                  const mjtNum* quat, const mjtNum want[10]) {
  mjtNum in[12], M, p[3], q[4], I[3];
  for (int i = 0; i < n; i++) mju_geomInertia(mjGEOM_BOX, size + 3 * i, mass[i], in + 3 * i);
  mju_combineInertia(n, mass, pos, quat, in, &M, p, q, I);
  cr_assert(fabs(M - want[0]) < 1e-15);
  near(p, want + 1, 3, 1e-14);
  near(q, want + 4, 4, 1e-13);
  near(I, want + 8, 3, 1e-13);
}

// oracle body_mass, body_ipos, body_iquat, body_inertia:
//   <body><geom type="box" size="0.1 0.2 0.3" pos="0.1 0.2 0.3" mass="1"/>
//     <geom type="box" size="0.3 0.1 0.1" pos="-0.3 0.1 0.05" euler="10 20 30" mass="2"/></body>
//   3 | -1/6 .13333 .13333 | .37809323342719453 .36809799329988552 .38147378353618638
//   .75896450947310901 | .25522817335230491 .21946822562224022 .075303601025455746
//   <body><geom type="box" size="0.1 0.3 0.2" mass="1" pos="±0.1 0 0" euler="0 0 90"/> (x2)
//   2 | 0 0 0 | .5 .5 .5 .5 | .10666666666666669 .086666666666666670 .033333333333333340
Test(inertia, combine) {
  mjtNum q2[8] = {1, 0, 0, 0};
  euler(q2 + 4, 10, 20, 30);
  mjtNum want[11] = {3, -1.0 / 6, 0.4 / 3, 0.4 / 3, 0.37809323342719453, 0.36809799329988552,
                     0.38147378353618638, 0.75896450947310901, 0.25522817335230491,
                     0.21946822562224022, 0.075303601025455746};
  boxes(2, (mjtNum[]){0.1, 0.2, 0.3, 0.3, 0.1, 0.1}, (mjtNum[]){1, 2},
        (mjtNum[]){0.1, 0.2, 0.3, -0.3, 0.1, 0.05}, q2, want);
  mjtNum q90[8];
  euler(q90, 0, 0, 90);
  mju_copy4(q90 + 4, q90);
  mjtNum want2[11] = {2, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0.10666666666666669, 0.086666666666666670,
                      0.033333333333333340};
  boxes(2, (mjtNum[]){0.1, 0.3, 0.2, 0.1, 0.3, 0.2}, (mjtNum[]){1, 1},
        (mjtNum[]){0.1, 0, 0, -0.1, 0, 0}, q90, want2);
  // one part keeps its frame and moment order (oracle: a single rotated box keeps geom_quat)
  mjtNum in[3], M, p[3], q[4], I[3];
  mju_geomInertia(mjGEOM_BOX, (mjtNum[]){0.1, 0.3, 0.2}, 1, in);
  mju_combineInertia(1, (mjtNum[]){1}, (mjtNum[]){0.5, 0, 0}, q2 + 4, in, &M, p, q, I);
  near(q, q2 + 4, 4, 0);
  near(I, in, 3, 0);
}

// oracle (MuJoCo 3.14.0, whose compiler diagonalizes fullinertia to convergence) body_inertia
// and body_iquat of <inertial mass="1" fullinertia="..."/>:
//   0.3 0.25 0.2 0.01 0.02 0.03:  .30849188965430457 .25727835028584645 .18422976005984804 |
//     .96271412630020003 .18898324547249418 -.096763354685317646 .16764157343203473
//   0.2 0.25 0.3 0.01 0.02 0.03:  .31827601656659193 .23595649771582988 .19576748571757907 |
//     .17295090213860120 .75029575257031045 .13475501351867397 .62368690498998147
//   0.2 0.25 0.3 0 0 0:  .3 .25 .2 | 0 .70710678118654891 0 .70710678118654891
//   0.2 0.25 0.3 -0.01 0 0:  .3 .25192582403567254 .19807417596432747 |
//     -.067163258684674931 .70390986403292954 .067163258684674931 .70390986403292954
Test(inertia, fullInertia) {
  struct { mjtNum full[6], diag[3], quat[4]; } c[] = {
    {{0.3, 0.25, 0.2, 0.01, 0.02, 0.03},
     {0.30849188965430457, 0.25727835028584645, 0.18422976005984804},
     {0.96271412630020003, 0.18898324547249418, -0.096763354685317646, 0.16764157343203473}},
    {{0.2, 0.25, 0.3, 0.01, 0.02, 0.03},
     {0.31827601656659193, 0.23595649771582988, 0.19576748571757907},
     {0.17295090213860120, 0.75029575257031045, 0.13475501351867397, 0.62368690498998147}},
    {{0.2, 0.25, 0.3, 0, 0, 0}, {0.3, 0.25, 0.2},
     {0, 0.70710678118654891, 0, 0.70710678118654891}},
    {{0.2, 0.25, 0.3, -0.01, 0, 0}, {0.3, 0.25192582403567254, 0.19807417596432747},
     {-0.067163258684674931, 0.70390986403292954, 0.067163258684674931, 0.70390986403292954}},
  };
  for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    mjtNum q[4], d[3];
    cr_assert_eq(mju_fullInertia(c[i].full, q, d), 0);
    near(d, c[i].diag, 3, 1e-14);
    near(q, c[i].quat, 4, 1e-14);
  }
  // an indefinite matrix is reported
  mjtNum q[4], d[3];
  cr_assert_neq(mju_fullInertia((mjtNum[]){1, 1, -1, 0, 0, 0}, q, d), 0);
}

// R diag(eig) R' reproduces a symmetric matrix, R a rotation: to round-off when converged
// (mju_eig3), to ~1e-7 of the largest entry when coarse (mju_eig3Coarse, mesh frames)
static void eigReconstruct(int coarse, mjtNum tol) {
  mjtNum mat[9] = {2, -0.3, 0.5, -0.3, 1, 0.7, 0.5, 0.7, -1}, val[3], vec[9], q[4], r[9];
  (coarse ? mju_eig3Coarse : mju_eig3)(val, vec, q, mat);
  cr_assert(val[0] >= val[1] && val[1] >= val[2]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      mjtNum s = 0;
      for (int k = 0; k < 3; k++) s += vec[3 * i + k] * val[k] * vec[3 * j + k];
      r[3 * i + j] = s;
    }
  near(r, mat, 9, tol);
}

Test(inertia, eig3) {
  eigReconstruct(0, 1e-14);
  eigReconstruct(1, 3e-7);
}

// the coarse stop is relative: the Menagerie's ANYmal C base_0.obj (inertia per unit density
// 1.9e-11, off-diagonals 1e-9 of that) keeps its axes in MuJoCo 3.14.0 (mesh_quat .5 .5 -.5 .5,
// the sort's turns only), where a pivot test at 1e-12 of the scale turned it by 0.027 rad
Test(inertia, eig3Coarse) {
  mjtNum f[6] = {1.8958405524684658e-11, 1.8958404456260917e-11, 3.7699331726227572e-11,
                 2.8574156880041344e-20, -3.1554436208840472e-30, 1.7157724688557007e-29};
  mjtNum mat[9] = {f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]}, val[3], vec[9], q[4];
  mju_eig3Coarse(val, vec, q, mat);
  near(q, (mjtNum[]){0.5, 0.5, -0.5, 0.5}, 4, 1e-15);
}
