// t/unit/util/inertia.c: primitive inertias, bounds and body principal frames (lib/util/inertia.c).
// Oracle numbers come from MuJoCo 3.5.1 (npm `mujoco`) on the XML quoted next to them; the
// combined boxes from MuJoCo 3.14.0 (npm `@mujoco/mujoco`), whose compiler turns to them exactly.
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

// oracle body_inertia and body_iquat of <inertial mass="1" fullinertia="..."/>:
//   0.3 0.25 0.2 0.01 0.02 0.03:  .30849188965430457 .25727835028584656 .18422976005984815 |
//     .96271412651238597 .18898324559290605 -.096763354446812513 .16764157221544146
//   0.2 0.25 0.3 0.01 0.02 0.03:  .31827601656659149 .23595649771582947 .19576748571757890 |
//     .17295088417164320 .75029575671476201 .13475502845376264 .62368690175960828
//   0.2 0.25 0.3 0 0 0:  .3 .25 .2 | 0 .70710678118654891 0 .70710678118654891
//   0.2 0.25 0.3 -0.01 0 0:  .3 .25192582403567249 .19807417596432741 |
//     -.067163258684674765 .70390986403292966 .067163258684674765 .70390986403292966
Test(inertia, fullInertia) {
  struct { mjtNum full[6], diag[3], quat[4]; } c[] = {
    {{0.3, 0.25, 0.2, 0.01, 0.02, 0.03},
     {0.30849188965430457, 0.25727835028584656, 0.18422976005984815},
     {0.96271412651238597, 0.18898324559290605, -0.096763354446812513, 0.16764157221544146}},
    {{0.2, 0.25, 0.3, 0.01, 0.02, 0.03},
     {0.31827601656659149, 0.23595649771582947, 0.19576748571757890},
     {0.17295088417164320, 0.75029575671476201, 0.13475502845376264, 0.62368690175960828}},
    {{0.2, 0.25, 0.3, 0, 0, 0}, {0.3, 0.25, 0.2},
     {0, 0.70710678118654891, 0, 0.70710678118654891}},
    {{0.2, 0.25, 0.3, -0.01, 0, 0}, {0.3, 0.25192582403567249, 0.19807417596432741},
     {-0.067163258684674765, 0.70390986403292966, 0.067163258684674765, 0.70390986403292966}},
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

// R diag(eig) R' reproduces a symmetric matrix, R a rotation; the iteration stops once the
// Jacobi rotation is below ~1.4e-6 rad (cos > 1 - 1e-12), as MuJoCo's does, so the
// reconstruction is good to ~1e-7 only (the oracle agrees to 1e-14 on fullinertia cases)
Test(inertia, eig3) {
  mjtNum mat[9] = {2, -0.3, 0.5, -0.3, 1, 0.7, 0.5, 0.7, -1}, val[3], vec[9], q[4], r[9];
  mju_eig3(val, vec, q, mat);
  cr_assert(val[0] >= val[1] && val[1] >= val[2]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      mjtNum s = 0;
      for (int k = 0; k < 3; k++) s += vec[3 * i + k] * val[k] * vec[3 * j + k];
      r[3 * i + j] = s;
    }
  near(r, mat, 9, 1e-7);
}
