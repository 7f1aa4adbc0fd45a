// tendon.c: tendon lengths and Jacobians, actuator lengths and moments (position stage).
#include <math.h>

#include "smooth.h"
#include "util.h"

// ---- tendons ---------------------------------------------------------------------------------

// straight segment between sites s0 and s1, scaled by 1/divisor: adds |p1 - p0|/divisor to
// the length and u'(J1 - J0)/divisor to the Jacobian row, u = (p1 - p0)/|p1 - p0|
static mjtNum siteSegment(const mjModel* m, const mjData* d, mjtNum* jrow, int s0, int s1,
                          mjtNum divisor) {
  const mjtNum* p0 = d->site_xpos + 3 * s0;
  const mjtNum* p1 = d->site_xpos + 3 * s1;
  mjtNum u[3];
  mju_sub3(u, p1, p0);
  mjtNum len = mju_normalize3(u);
  if (len < mjMINVAL) return 0;
  mj_addJacPointDot(m, d, jrow, p1, m->site_bodyid[s1], u, 1 / divisor);
  mj_addJacPointDot(m, d, jrow, p0, m->site_bodyid[s0], u, -1 / divisor);
  return len / divisor;
}

// ten_length and ten_J: a fixed tendon sums coef * qpos of its joints; a spatial tendon sums
// its site-to-site segments, each divided by the divisor of the last pulley before it; geom
// wrap objects are skipped (the path runs straight between the sites around them)
void mj_tendon(const mjModel* m, mjData* d) {
  int nv = m->nv;
  for (int t = 0; t < m->ntendon; t++) {
    mjtNum* jrow = d->ten_J + (size_t)t * nv;
    mjtNum len = 0, divisor = 1;
    int prev = -1;  // previous site of the current branch, -1 after a pulley
    mju_zero(jrow, nv);
    for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
      int id = m->wrap_objid[w];
      switch (m->wrap_type[w]) {
        case mjWRAP_JOINT:
          // fixed tendon: length += coef qpos, J[dof] += coef
          len += m->wrap_prm[w] * d->qpos[m->jnt_qposadr[id]];
          jrow[m->jnt_dofadr[id]] += m->wrap_prm[w];
          break;
        case mjWRAP_PULLEY:
          // new branch with its own divisor
          divisor = m->wrap_prm[w] > mjMINVAL ? m->wrap_prm[w] : 1;
          prev = -1;
          break;
        case mjWRAP_SITE:
          if (prev >= 0) len += siteSegment(m, d, jrow, prev, id, divisor);
          prev = id;
          break;
        default:
          // sphere and cylinder wrapping: not computed, the segment stays straight
          break;
      }
    }
    d->ten_length[t] = len;
  }
}

// ---- transmissions -----------------------------------------------------------------------------

// actuator_length and actuator_moment: joint (hinge, slide: gear qpos; ball and free: moment
// = gear on the joint's dofs, rotated for jointinparent; ball length gear . rotation vector,
// free length 0) and tendon (gear ten_length, gear ten_J);
// slider-crank, site and body transmissions are left at zero
void mj_transmission(const mjModel* m, mjData* d) {
  int nv = m->nv;
  for (int a = 0; a < m->nu; a++) {
    mjtNum* moment = d->actuator_moment + (size_t)a * nv;
    const mjtNum* gear = m->actuator_gear + 6 * a;
    int id = m->actuator_trnid[2 * a];
    mju_zero(moment, nv);
    d->actuator_length[a] = 0;
    if (id < 0) continue;
    switch (m->actuator_trntype[a]) {
      case mjTRN_JOINT:
      case mjTRN_JOINTINPARENT: {
        int type = m->jnt_type[id], dof = m->jnt_dofadr[id];
        const mjtNum* q = d->qpos + m->jnt_qposadr[id];
        if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
          d->actuator_length[a] = gear[0] * q[0];
          moment[dof] = gear[0];
          break;
        }
        // ball and free: the rotational gear acts in the child frame; jointinparent gives it
        // in the parent frame, so it turns by the inverse joint rotation: R(q)' gear
        int rot = type == mjJNT_FREE ? 3 : 0;
        const mjtNum* quat = q + (type == mjJNT_FREE ? 3 : 0);
        mju_copy(moment + dof, gear, rot + 3);
        if (m->actuator_trntype[a] == mjTRN_JOINTINPARENT) {
          mjtNum qinv[4];
          mju_negQuat(qinv, quat);
          mju_rotVecQuat(moment + dof + rot, gear + rot, qinv);
        }
        // a ball's length is the gear times its rotation vector (invariant under R); free: 0
        if (type == mjJNT_BALL) {
          mjtNum rotvec[3];
          mju_quat2Vel(rotvec, quat, 1);
          d->actuator_length[a] = mju_dot3(moment + dof, rotvec);
        }
        break;
      }
      case mjTRN_TENDON:
        d->actuator_length[a] = gear[0] * d->ten_length[id];
        mju_scl(moment, d->ten_J + (size_t)id * nv, gear[0], nv);
        break;
      default:
        break;
    }
  }
}
