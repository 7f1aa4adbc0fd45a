// util_spatial.c: quaternions, rotation matrices, poses and spatial 6-vector algebra.
#include "util.h"

#include <math.h>

// ---- quaternions and rotations ---------------------------------------------------------------

// res = a * b (Hamilton product; temporaries first, so res may alias a or b)
void mju_mulQuat(mjtNum res[4], const mjtNum a[4], const mjtNum b[4]) {
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
void mju_negQuat(mjtNum res[4], const mjtNum quat[4]) {
  res[0] = quat[0];
  res[1] = -quat[1];
  res[2] = -quat[2];
  res[3] = -quat[3];
}

// res = R(q) vec = vec + 2 w (u x vec) + 2 u x (u x vec), u = (x, y, z); res may alias vec
void mju_rotVecQuat(mjtNum res[3], const mjtNum vec[3], const mjtNum quat[4]) {
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
void mju_quat2Mat(mjtNum res[9], const mjtNum q[4]) {
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

// res = vec x mot, vec = (w, v), mot = (w2, v2): (w x w2, w x v2 + v x w2); no alias
void mju_crossMotion(mjtNum res[6], const mjtNum vec[6], const mjtNum mot[6]) {
  mjtNum t[3];
  mju_cross(res, vec, mot);
  mju_cross(res + 3, vec, mot + 3);
  mju_cross(t, vec + 3, mot);
  mju_addTo3(res + 3, t);
}

// res = vec x* frc, vec = (w, v), frc = (t, f): (w x t + v x f, w x f); no alias
void mju_crossForce(mjtNum res[6], const mjtNum vec[6], const mjtNum frc[6]) {
  mjtNum t[3];
  mju_cross(res, vec, frc);
  mju_cross(t, vec + 3, frc + 3);
  mju_addTo3(res, t);
  mju_cross(res + 3, vec, frc + 3);
}

// res = cinert * vec: (I w + h x v, m v - h x w), I = inert[0..5] about the frame origin,
// h = inert[6..8] = m * com offset, m = inert[9]; no alias
void mju_mulInertVec(mjtNum res[6], const mjtNum i[10], const mjtNum v[6]) {
  const mjtNum* h = i + 6;
  res[0] = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] + h[1] * v[5] - h[2] * v[4];
  res[1] = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + h[2] * v[3] - h[0] * v[5];
  res[2] = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] + h[0] * v[4] - h[1] * v[3];
  res[3] = i[9] * v[3] - (h[1] * v[2] - h[2] * v[1]);
  res[4] = i[9] * v[4] - (h[2] * v[0] - h[0] * v[2]);
  res[5] = i[9] * v[5] - (h[0] * v[1] - h[1] * v[0]);
}

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
