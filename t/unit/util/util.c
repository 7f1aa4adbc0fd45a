// t/unit/util/util.c: vectors, matrices, quaternions, poses and spatial algebra
// (lib/util/util_*.c). Oracle numbers come from MuJoCo 3.5.1 (npm `mujoco`) on the XML quoted next
// to them.
#include <criterion/criterion.h>
#include <math.h>

#include "util/util.h"

// |a - b| <= tol for n numbers
static void near(const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++)
    cr_assert(fabs(a[i] - b[i]) <= tol, "element %d: %.17g vs %.17g", i, a[i], b[i]);
}

// a rotation about a unit axis, as a quaternion, for the tests
static void qaxis(mjtNum q[4], mjtNum x, mjtNum y, mjtNum z, mjtNum deg) {
  mjtNum axis[3] = {x, y, z};
  mju_normalize3(axis);
  mju_axisAngle2Quat(q, axis, deg * mjPI / 180);
}

Test(util, vectors) {
  mjtNum a[4] = {1, 2, 3, 4}, b[4] = {-1, 0.5, 2, 1}, r[4];
  cr_assert_eq(mju_dot(a, b, 4), -1 + 1 + 6 + 4);
  mju_sub(r, a, b, 4);
  near(r, (mjtNum[]){2, 1.5, 1, 3}, 4, 0);
  mju_addToScl(r, b, 2, 4);
  near(r, (mjtNum[]){0, 2.5, 5, 5}, 4, 0);
  cr_assert_float_eq(mju_norm(a, 4), sqrt(30), 1e-15);
  // cross product, aliased with its first input
  mjtNum c[3] = {1, 0, 0};
  mju_cross(c, c, (mjtNum[]){0, 1, 0});
  near(c, (mjtNum[]){0, 0, 1}, 3, 0);
  // normalization of a tiny vector gives the first axis and returns the tiny norm
  mjtNum t[4] = {1e-20, 0, 0, 0};
  cr_assert_eq(mju_normalize4(t), 1e-20);
  near(t, (mjtNum[]){1, 0, 0, 0}, 4, 0);
}

Test(util, matrices) {
  // a (2x3) * b (3x2), a*b' and a'*b against hand products
  mjtNum a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12}, r[9];
  mju_mulMatMat(r, a, b, 2, 3, 2);
  near(r, (mjtNum[]){58, 64, 139, 154}, 4, 0);
  mju_mulMatMatT(r, a, a, 2, 3, 2);
  near(r, (mjtNum[]){14, 32, 32, 77}, 4, 0);
  mju_mulMatTMat(r, a, a, 2, 3, 3);
  near(r, (mjtNum[]){17, 22, 27, 22, 29, 36, 27, 36, 45}, 9, 0);
  mjtNum v[3] = {1, -1, 2}, w[2];
  mju_mulMatVec(w, a, v, 2, 3);
  near(w, (mjtNum[]){5, 11}, 2, 0);
  mju_mulMatTVec(r, a, (mjtNum[]){1, -1}, 2, 3);
  near(r, (mjtNum[]){-3, -3, -3}, 3, 0);
  cr_assert_eq(mju_mulVecMatVec(v, (mjtNum[]){1, 0, 0, 0, 2, 0, 0, 0, 3}, v, 3), 1 + 2 + 12);
}

Test(util, quaternions) {
  // rotate x by 90 degrees about z: y
  mjtNum q[4], r[3], mat[9], back[4];
  qaxis(q, 0, 0, 1, 90);
  mju_rotVecQuat(r, (mjtNum[]){1, 0, 0}, q);
  near(r, (mjtNum[]){0, 1, 0}, 3, 1e-15);
  // quat -> mat -> quat, and mat equals the action of rotVecQuat on the axes
  qaxis(q, 1, -2, 0.5, 137);
  mju_quat2Mat(mat, q);
  for (int j = 0; j < 3; j++) {
    mjtNum e[3] = {j == 0, j == 1, j == 2};
    mju_rotVecQuat(r, e, q);
    for (int i = 0; i < 3; i++) cr_assert(fabs(mat[3 * i + j] - r[i]) < 1e-15);
  }
  // back to a quaternion: MuJoCo's sign (oracle, xyaxes of this matrix:
  // <geom type="box" size="1 2 3" xyaxes="-0.40157204416790004 -0.51073907162529619
  //  0.76018780183461587 -0.80838755817978636 0.58777292818591187 -0.032133170896780361"/>
  // geom_quat = -.36650122672429730 -.40606751744708086 .81213503489416172 -.20303375872354046)
  mju_mat2Quat(back, mat);
  near(back, (mjtNum[]){-0.36650122672429730, -0.40606751744708086, 0.81213503489416172,
                        -0.20303375872354046}, 4, 1e-15);
  mjtNum qneg[4] = {-q[0], -q[1], -q[2], -q[3]};
  near(back, qneg, 4, 1e-15);
  // a rotation by 180 degrees about x (trace -1) converts back
  mjtNum flip[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};
  mju_mat2Quat(back, flip);
  near(back, (mjtNum[]){0, 1, 0, 0}, 4, 1e-15);
  // q * conj(q) = identity, mulQuat aliasing its output
  mjtNum c[4];
  mju_negQuat(c, q);
  mju_mulQuat(c, q, c);
  near(c, (mjtNum[]){1, 0, 0, 0}, 4, 1e-15);
  // subQuat inverts quatIntegrate
  mjtNum qa[4], vel[3] = {0.3, -0.2, 0.7}, dv[3];
  mju_copy4(qa, q);
  mju_quatIntegrate(qa, vel, 1);
  mju_subQuat(dv, qa, q);
  near(dv, vel, 3, 1e-14);
}

// oracle: geom_quat of capsules with fromto "0 0 0 x y z" (the axis runs from - to)
//   <geom type="capsule" size="0.1" fromto="0 0 0 0 0 -1"/> -> 1 0 0 0
//   fromto="0 0 0 0 0 1"        -> 6.1232339957367660e-17 1 0 0
//   fromto="0 0 0 1 0 0"        -> .70710678118654757 0 -.70710678118654746 0
//   fromto="0 0 0 0 0.001 -1"   -> .99999987500008591 .00049999981250012111 0 0
//   fromto="0 0 0 1e-6 0 -1"    -> .99999999999987499 0 -4.9999999999981247e-7 0
//   fromto="0 0 0 1e-6 0 1"     -> 4.9999999990905585e-7 0 -.99999999999987499 0
//   fromto="0 0 0 1e-7 0 1"     -> 6.1232339957367660e-17 1 0 0
Test(util, quatZ2Vec) {
  struct { mjtNum v[3], q[4]; } c[] = {
    {{0, 0, 1}, {1, 0, 0, 0}},
    {{0, 0, -1}, {6.1232339957367660e-17, 1, 0, 0}},
    {{-1, 0, 0}, {0.70710678118654757, 0, -0.70710678118654746, 0}},
    {{0, -0.001, 1}, {0.99999987500008591, 0.00049999981250012111, 0, 0}},
    {{-1e-6, 0, 1}, {0.99999999999987499, 0, -4.9999999999981247e-7, 0}},
    {{-1e-6, 0, -1}, {4.9999999990905585e-7, 0, -0.99999999999987499, 0}},
    {{-1e-7, 0, -1}, {6.1232339957367660e-17, 1, 0, 0}},
  };
  for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    mjtNum q[4];
    mju_quatZ2Vec(q, c[i].v);
    near(q, c[i].q, 4, 1e-16);
  }
}

Test(util, poses) {
  // (p, q) * inverse(p, q) = identity
  mjtNum p[3] = {0.3, -1, 2}, q[4], pn[3], qn[4], pr[3], qr[4];
  qaxis(q, 0.2, 1, -0.4, 71);
  mju_negPose(pn, qn, p, q);
  mju_mulPose(pr, qr, p, q, pn, qn);
  near(pr, (mjtNum[]){0, 0, 0}, 3, 1e-15);
  near(qr, (mjtNum[]){1, 0, 0, 0}, 4, 1e-15);
}

Test(util, spatial) {
  // motion transport: a pure rotation w about the origin seen at point p has v = w x p
  mjtNum vec[6] = {0, 0, 2, 0, 0, 0}, res[6], p[3] = {1, 0, 0}, o[3] = {0, 0, 0};
  mju_transformSpatial(res, vec, 0, p, o, NULL);
  near(res, (mjtNum[]){0, 0, 2, 0, 2, 0}, 6, 0);
  // force transport: a force f at the origin has torque -p x f about p
  mjtNum frc[6] = {0, 0, 0, 0, 0, 3};
  mju_transformSpatial(res, frc, 1, p, o, NULL);
  near(res, (mjtNum[]){0, 3, 0, 0, 0, 3}, 6, 0);
  // duality: (v x m) . f = -m . (v x* f) for any v, m, f
  mjtNum v[6] = {0.1, -0.4, 0.9, 1, 2, -3}, mot[6] = {3, 1, -2, 0.5, 0.2, 0.1};
  mjtNum f[6] = {-1, 0.3, 0.8, 2, -2, 1}, cm[6], cf[6];
  mju_crossMotion(cm, v, mot);
  mju_crossForce(cf, v, f);
  cr_assert_float_eq(mju_dot(cm, f, 6), -mju_dot(mot, cf, 6), 1e-14);
  // mulInertVec equals the 6x6 spatial inertia [I, [h]x; -[h]x, m E] times the vector
  mjtNum in[10] = {2, 3, 4, 0.1, -0.2, 0.3, 0.5, -0.6, 0.7, 1.5};
  const mjtNum* h = in + 6;
  mjtNum hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
  mjtNum big[36] = {0};
  mjtNum iv[9] = {in[0], in[3], in[4], in[3], in[1], in[5], in[4], in[5], in[2]};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      big[6 * i + j] = iv[3 * i + j];
      big[6 * i + j + 3] = hx[3 * i + j];
      big[6 * (i + 3) + j] = -hx[3 * i + j];
      big[6 * (i + 3) + j + 3] = (i == j) * in[9];
    }
  mjtNum want[6];
  mju_mulMatVec(want, big, v, 6, 6);
  mju_mulInertVec(res, in, v);
  near(res, want, 6, 1e-15);
}
