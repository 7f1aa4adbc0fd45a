// util_spatial.c: quaternions, rotation matrices, poses and spatial 6-vector algebra.
#include "util/util.h"

#include <math.h>

// ---- quaternions and rotations ---------------------------------------------------------------

// unit quaternion of a rotation matrix: from the trace when positive, else from the largest
// diagonal element (the component that is far from zero), then normalized
void mju_mat2Quat(mjtNum q[4], const mjtNum m[9]) {
  mjtNum tr = m[0] + m[4] + m[8];
  if (tr > 0) {
    // w = sqrt(1 + tr)/2
    mjtNum s = 2 * sqrt(1 + tr);
    q[0] = s / 4;
    q[1] = (m[7] - m[5]) / s;
    q[2] = (m[2] - m[6]) / s;
    q[3] = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    // x = sqrt(1 + m00 - m11 - m22)/2
    mjtNum s = 2 * sqrt(1 + m[0] - m[4] - m[8]);
    q[0] = (m[7] - m[5]) / s;
    q[1] = s / 4;
    q[2] = (m[1] + m[3]) / s;
    q[3] = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    // y = sqrt(1 + m11 - m00 - m22)/2
    mjtNum s = 2 * sqrt(1 + m[4] - m[0] - m[8]);
    q[0] = (m[2] - m[6]) / s;
    q[1] = (m[1] + m[3]) / s;
    q[2] = s / 4;
    q[3] = (m[5] + m[7]) / s;
  } else {
    // z = sqrt(1 + m22 - m00 - m11)/2
    mjtNum s = 2 * sqrt(1 + m[8] - m[0] - m[4]);
    q[0] = (m[3] - m[1]) / s;
    q[1] = (m[2] + m[6]) / s;
    q[2] = (m[5] + m[7]) / s;
    q[3] = s / 4;
  }
  mju_normalize4(q);
}

// res = (cos(angle/2), axis sin(angle/2)) for a unit axis
void mju_axisAngle2Quat(mjtNum res[4], const mjtNum axis[3], mjtNum angle) {
  if (angle == 0) {
    mju_unit4(res);
    return;
  }
  mjtNum s = sin(angle / 2);
  res[0] = cos(angle / 2);
  res[1] = axis[0] * s;
  res[2] = axis[1] * s;
  res[3] = axis[2] * s;
}

// the rotation about axis z x vec by the angle between z and vec; vec (anti)parallel to z
// within sin(angle) < 1e-7 gives the identity or 180 degrees about x
void mju_quatZ2Vec(mjtNum quat[4], const mjtNum vec[3]) {
  mjtNum v[3] = {vec[0], vec[1], vec[2]};
  mju_normalize3(v);
  // axis = z x v = (-v_y, v_x, 0), |axis| = sin(angle)
  mjtNum axis[3] = {-v[1], v[0], 0};
  mjtNum s = mju_norm3(axis);
  if (s < 1e-7) {
    const mjtNum xaxis[3] = {1, 0, 0};
    if (v[2] < 0) {
      mju_axisAngle2Quat(quat, xaxis, mjPI);
    } else {
      mju_unit4(quat);
    }
    return;
  }
  mju_scl3(axis, axis, 1 / s);
  mju_axisAngle2Quat(quat, axis, atan2(s, v[2]));
}

// rotation vector of a unit quaternion divided by dt, angle wrapped into [-pi, pi]
void mju_quat2Vel(mjtNum res[3], const mjtNum quat[4], mjtNum dt) {
  mjtNum axis[3] = {quat[1], quat[2], quat[3]};
  mjtNum sin_a_2 = mju_norm3(axis);
  if (sin_a_2 < mjMINVAL) {
    mju_zero3(res);
    return;
  }
  mju_scl3(axis, axis, 1 / sin_a_2);
  mjtNum angle = 2 * atan2(sin_a_2, quat[0]);
  if (angle > mjPI) angle -= 2 * mjPI;
  mju_scl3(res, axis, angle / dt);
}

// res with qb * quat(res) = qa: the rotation vector of conj(qb) * qa
void mju_subQuat(mjtNum res[3], const mjtNum qa[4], const mjtNum qb[4]) {
  mjtNum qneg[4], dq[4];
  mju_negQuat(qneg, qb);
  mju_mulQuat(dq, qneg, qa);
  mju_quat2Vel(res, dq, 1);
}

// quat = normalize(quat * axisangle(vel/|vel|, |vel| scl))
void mju_quatIntegrate(mjtNum quat[4], const mjtNum vel[3], mjtNum scl) {
  mjtNum axis[3] = {vel[0], vel[1], vel[2]};
  mjtNum angle = scl * mju_normalize3(axis);
  mjtNum dq[4];
  mju_axisAngle2Quat(dq, axis, angle);
  mju_mulQuat(quat, quat, dq);
  mju_normalize4(quat);
}

// ---- poses -------------------------------------------------------------------------------------

// pos = pos1 + R(quat1) pos2, quat = quat1 * quat2
void mju_mulPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos1[3],
                 const mjtNum quat1[4], const mjtNum pos2[3], const mjtNum quat2[4]) {
  mjtNum p[3];
  mju_rotVecQuat(p, pos2, quat1);
  mju_add3(posres, p, pos1);
  mju_mulQuat(quatres, quat1, quat2);
}

// quat = conj(quat), pos = -R(conj(quat)) pos
void mju_negPose(mjtNum posres[3], mjtNum quatres[4], const mjtNum pos[3],
                 const mjtNum quat[4]) {
  mjtNum qneg[4], p[3];
  mju_negQuat(qneg, quat);
  mju_rotVecQuat(p, pos, qneg);
  mju_scl3(posres, p, -1);
  mju_copy4(quatres, qneg);
}

// ---- spatial algebra ---------------------------------------------------------------------------

// shift a motion (v_new = v - (new - old) x w) or a force (t_new = t - (new - old) x f) from
// oldpos to newpos, then rotate both halves into the new frame: res = R' res
void mju_transformSpatial(mjtNum res[6], const mjtNum vec[6], int flg_force,
                          const mjtNum newpos[3], const mjtNum oldpos[3],
                          const mjtNum rotnew2old[9]) {
  mjtNum dif[3], cr[3], tran[6];
  mju_sub3(dif, newpos, oldpos);
  mju_copy(tran, vec, 6);
  if (flg_force) {
    // torque about the new point
    mju_cross(cr, dif, vec + 3);
    mju_sub3(tran, vec, cr);
  } else {
    // linear velocity of the new point
    mju_cross(cr, dif, vec);
    mju_sub3(tran + 3, vec + 3, cr);
  }
  // rotate both halves
  if (rotnew2old) {
    mju_mulMatTVec3(res, rotnew2old, tran);
    mju_mulMatTVec3(res + 3, rotnew2old, tran + 3);
  } else {
    mju_copy(res, tran, 6);
  }
}
