// smooth.c: the position stage: kinematics, com-based quantities, composite rigid body
// inertia, sparse L'DL factorization and solves, Jacobians.
#include "engine/smooth.h"

#include <math.h>

#include "engine/constraint.h"
#include "engine/model.h"
#include "util/util.h"

// ---- kinematics ----------------------------------------------------------------------------

// the world pose of an object fixed in body b at (lpos, lquat): pos = xpos + xmat lpos,
// mat = R(xquat lquat); the compiler's sameframe flag marks what equals the body's frame
// (1: pose, 3: rotation) or its inertial frame (2: pose, 4: rotation), which is copied
static void localPose(const mjData* d, int b, int sameframe, const mjtNum lpos[3],
                      const mjtNum lquat[4], mjtNum pos[3], mjtNum mat[9]) {
  const mjtNum* xmat = d->xmat + 9 * b;
  if (sameframe == 1 || sameframe == 2) {
    mju_copy3(pos, sameframe == 1 ? d->xpos + 3 * b : d->xipos + 3 * b);
  } else {
    mju_mulMatVec3(pos, xmat, lpos);
    mju_addTo3(pos, d->xpos + 3 * b);
  }
  if (sameframe == 1 || sameframe == 3) {
    mju_copy9(mat, xmat);
  } else if (sameframe == 2 || sameframe == 4) {
    mju_copy9(mat, d->ximat + 9 * b);
  } else {
    mjtNum quat[4];
    mju_mulQuat(quat, d->xquat + 4 * b, lquat);
    mju_quat2Mat(mat, quat);
  }
}

// world pose of body i from its parent and its joints; writes xanchor and xaxis
static void bodyPose(const mjModel* m, mjData* d, int i) {
  mjtNum pos[3], quat[4];
  int p = m->body_parentid[i], mocap = m->body_mocapid[i];

  // frame before the joints: mocap data, or the offset from the parent
  if (mocap >= 0) {
    mju_copy3(pos, d->mocap_pos + 3 * mocap);
    mju_copy4(quat, d->mocap_quat + 4 * mocap);
  } else {
    mju_mulMatVec3(pos, d->xmat + 9 * p, m->body_pos + 3 * i);
    mju_addTo3(pos, d->xpos + 3 * p);
    mju_mulQuat(quat, d->xquat + 4 * p, m->body_quat + 4 * i);
  }

  // joints in order, each moving the frame
  for (int j = m->body_jntadr[i]; j < m->body_jntadr[i] + m->body_jntnum[i]; j++) {
    const mjtNum* qpos = d->qpos + m->jnt_qposadr[j];
    const mjtNum* jpos = m->jnt_pos + 3 * j;
    const mjtNum* jaxis = m->jnt_axis + 3 * j;
    mjtNum* anchor = d->xanchor + 3 * j;
    mjtNum* axis = d->xaxis + 3 * j;
    int type = m->jnt_type[j];

    // free: the pose is qpos itself, anchor at the origin, axis z
    if (type == mjJNT_FREE) {
      mju_copy3(pos, qpos);
      mju_copy4(quat, qpos + 3);
      mju_normalize4(quat);
      mju_copy3(anchor, pos);
      axis[0] = axis[1] = 0;
      axis[2] = 1;
      continue;
    }

    // anchor = pos + R jnt_pos, axis = R jnt_axis, R the frame before this joint
    mju_rotVecQuat(anchor, jpos, quat);
    mju_addTo3(anchor, pos);
    mju_rotVecQuat(axis, jaxis, quat);

    // slide: translate along the axis by qpos - qpos0
    if (type == mjJNT_SLIDE) {
      mju_addToScl3(pos, axis, qpos[0] - m->qpos0[m->jnt_qposadr[j]]);
      continue;
    }

    // hinge and ball: rotate about the anchor, pos = anchor - R' jnt_pos
    mjtNum qloc[4];
    if (type == mjJNT_HINGE) {
      mju_axisAngle2Quat(qloc, jaxis, qpos[0] - m->qpos0[m->jnt_qposadr[j]]);
    } else {
      mju_copy4(qloc, qpos);
      mju_normalize4(qloc);
    }
    mju_mulQuat(quat, quat, qloc);
    mjtNum off[3];
    mju_rotVecQuat(off, jpos, quat);
    mju_sub3(pos, anchor, off);
  }

  // store the normalized frame and the inertial frame
  mju_normalize4(quat);
  mju_copy3(d->xpos + 3 * i, pos);
  mju_copy4(d->xquat + 4 * i, quat);
  mju_quat2Mat(d->xmat + 9 * i, quat);
  localPose(d, i, m->body_sameframe[i], m->body_ipos + 3 * i, m->body_iquat + 4 * i,
            d->xipos + 3 * i, d->ximat + 9 * i);
}

// forward kinematics: bodies in tree order (parents first), then attached objects
void mj_kinematics(const mjModel* m, mjData* d) {
  // world body: identity
  if (m->nbody > 0) {
    mju_zero3(d->xpos);
    mju_unit4(d->xquat);
    mju_quat2Mat(d->xmat, d->xquat);
    mju_zero3(d->xipos);
    mju_copy(d->ximat, d->xmat, 9);
  }

  // bodies
  for (int i = 1; i < m->nbody; i++) bodyPose(m, d, i);

  // geoms and sites
  for (int g = 0; g < m->ngeom; g++)
    localPose(d, m->geom_bodyid[g], m->geom_sameframe[g], m->geom_pos + 3 * g,
              m->geom_quat + 4 * g, d->geom_xpos + 3 * g, d->geom_xmat + 9 * g);
  for (int s = 0; s < m->nsite; s++)
    localPose(d, m->site_bodyid[s], m->site_sameframe[s], m->site_pos + 3 * s,
              m->site_quat + 4 * s, d->site_xpos + 3 * s, d->site_xmat + 9 * s);

  // cameras and lights, fixed in their bodies
  for (int c = 0; c < m->ncam; c++)
    localPose(d, m->cam_bodyid[c], 0, m->cam_pos + 3 * c, m->cam_quat + 4 * c,
              d->cam_xpos + 3 * c, d->cam_xmat + 9 * c);
  for (int l = 0; l < m->nlight; l++) {
    int b = m->light_bodyid[l];
    const mjtNum* xmat = d->xmat + 9 * b;
    mju_mulMatVec3(d->light_xpos + 3 * l, xmat, m->light_pos + 3 * l);
    mju_addTo3(d->light_xpos + 3 * l, d->xpos + 3 * b);
    mju_mulMatVec3(d->light_xdir + 3 * l, xmat, m->light_dir + 3 * l);
  }
}

// ---- com-based quantities --------------------------------------------------------------------

// cinert of body i about the point com: (I_com + m (|c|^2 E - c c'), m c, m), c = xipos - com,
// I_com = ximat diag(body_inertia) ximat'
static void inertCom(mjtNum res[10], const mjtNum inertia[3], const mjtNum ximat[9],
                     const mjtNum c[3], mjtNum mass) {
  // t = R diag(inertia): (R diag(I) R')(a,b) = row a of t . row b of R
  mjtNum t[9];
  for (int k = 0; k < 9; k++) t[k] = ximat[k] * inertia[k % 3];

  // upper triangle (0,0) (1,1) (2,2) (0,1) (0,2) (1,2), each with its parallel-axis term
  mjtNum cc = mju_dot3(c, c);
  res[0] = mju_dot3(t, ximat) + mass * (cc - c[0] * c[0]);
  res[1] = mju_dot3(t + 3, ximat + 3) + mass * (cc - c[1] * c[1]);
  res[2] = mju_dot3(t + 6, ximat + 6) + mass * (cc - c[2] * c[2]);
  res[3] = mju_dot3(t, ximat + 3) - mass * (c[0] * c[1]);
  res[4] = mju_dot3(t, ximat + 6) - mass * (c[0] * c[2]);
  res[5] = mju_dot3(t + 3, ximat + 6) - mass * (c[1] * c[2]);
  mju_scl3(res + 6, c, mass);
  res[9] = mass;
}

// cdof = (axis, axis x (com - anchor)) for rotation about axis through anchor
static void dofRot(mjtNum cdof[6], const mjtNum axis[3], const mjtNum anchor[3],
                   const mjtNum com[3]) {
  mjtNum r[3];
  mju_sub3(r, com, anchor);
  mju_copy3(cdof, axis);
  mju_cross(cdof + 3, axis, r);
}

// subtree_com, cinert, cdof
void mj_comPos(const mjModel* m, mjData* d) {
  int nbody = m->nbody;
  mjtNum* com = d->subtree_com;

  // subtree_com = sum of mass*xipos over the subtree / subtree mass
  for (int i = 0; i < nbody; i++) mju_scl3(com + 3 * i, d->xipos + 3 * i, m->body_mass[i]);
  for (int i = nbody - 1; i > 0; i--) mju_addTo3(com + 3 * m->body_parentid[i], com + 3 * i);
  for (int i = 0; i < nbody; i++) {
    mjtNum mass = m->body_subtreemass[i];
    if (mass < mjMINVAL) {
      mju_copy3(com + 3 * i, d->xipos + 3 * i);
    } else {
      mju_scl3(com + 3 * i, com + 3 * i, 1 / mass);
    }
  }

  // cinert about the subtree com of each body's root (world: zero)
  if (nbody > 0) mju_zero(d->cinert, 10);
  for (int i = 1; i < nbody; i++) {
    mjtNum c[3];
    mju_sub3(c, d->xipos + 3 * i, com + 3 * m->body_rootid[i]);
    inertCom(d->cinert + 10 * i, m->body_inertia + 3 * i, d->ximat + 9 * i, c,
             m->body_mass[i]);
  }

  // cdof, joint by joint
  for (int j = 0; j < m->njnt; j++) {
    int b = m->jnt_bodyid[j];
    const mjtNum* rcom = com + 3 * m->body_rootid[b];
    const mjtNum* anchor = d->xanchor + 3 * j;
    const mjtNum* xmat = d->xmat + 9 * b;
    mjtNum* cdof = d->cdof + 6 * m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        // translations along the world axes, then rotations about the body axes
        mju_zero(cdof, 18);
        cdof[3] = cdof[6 + 4] = cdof[12 + 5] = 1;
        cdof += 18;
        // fall through
      case mjJNT_BALL:
        // rotations about the body's (current) axes through the anchor
        for (int k = 0; k < 3; k++) {
          mjtNum axis[3] = {xmat[k], xmat[3 + k], xmat[6 + k]};
          dofRot(cdof + 6 * k, axis, anchor, rcom);
        }
        break;
      case mjJNT_SLIDE:
        mju_zero3(cdof);
        mju_copy3(cdof + 3, d->xaxis + 3 * j);
        break;
      default:
        dofRot(cdof, d->xaxis + 3 * j, anchor, rcom);
        break;
    }
  }
}

// ---- cameras and lights ---------------------------------------------------------------------

// orientation whose -z looks from pos to target with x horizontal (up = world z):
// z = (pos - target)/|.|, x = normalize(up x z), y = z x x
static void lookAt(mjtNum mat[9], const mjtNum pos[3], const mjtNum target[3]) {
  mjtNum z[3], x[3], y[3];
  const mjtNum up[3] = {0, 0, 1};
  mju_sub3(z, pos, target);
  mju_normalize3(z);
  mju_cross(x, up, z);
  mju_normalize3(x);
  mju_cross(y, z, x);
  for (int r = 0; r < 3; r++) {
    mat[3 * r] = x[r];
    mat[3 * r + 1] = y[r];
    mat[3 * r + 2] = z[r];
  }
}

// position of a tracking object: track follows the body at offset pos0, trackcom follows the
// subtree com at offset poscom0, other modes keep the body-fixed position; returns 1 when the
// orientation stays fixed in the world (track, trackcom)
static int trackPos(const mjData* d, int mode, int body, const mjtNum pos0[3],
                    const mjtNum poscom0[3], mjtNum pos[3]) {
  if (mode == mjCAMLIGHT_TRACK) {
    mju_add3(pos, d->xpos + 3 * body, pos0);
    return 1;
  }
  if (mode == mjCAMLIGHT_TRACKCOM) {
    mju_add3(pos, d->subtree_com + 3 * body, poscom0);
    return 1;
  }
  return 0;
}

// the point a targeting object faces: the target body's origin or subtree com; NULL if none
static const mjtNum* targetPoint(const mjData* d, int mode, int target) {
  if (target < 0) return NULL;
  if (mode == mjCAMLIGHT_TARGETBODY) return d->xpos + 3 * target;
  if (mode == mjCAMLIGHT_TARGETBODYCOM) return d->subtree_com + 3 * target;
  return NULL;
}

// apply the tracking modes of cameras and lights
void mj_camlight(const mjModel* m, mjData* d) {
  // cameras: fixed world orientation mat0 when tracking, face the target when targeting
  for (int c = 0; c < m->ncam; c++) {
    int mode = m->cam_mode[c];
    mjtNum* pos = d->cam_xpos + 3 * c;
    if (trackPos(d, mode, m->cam_bodyid[c], m->cam_pos0 + 3 * c, m->cam_poscom0 + 3 * c, pos))
      mju_copy(d->cam_xmat + 9 * c, m->cam_mat0 + 9 * c, 9);
    const mjtNum* target = targetPoint(d, mode, m->cam_targetbodyid[c]);
    if (target) lookAt(d->cam_xmat + 9 * c, pos, target);
  }

  // lights: fixed world direction dir0 when tracking, toward the target when targeting
  for (int l = 0; l < m->nlight; l++) {
    int mode = m->light_mode[l];
    mjtNum* pos = d->light_xpos + 3 * l;
    mjtNum* dir = d->light_xdir + 3 * l;
    if (trackPos(d, mode, m->light_bodyid[l], m->light_pos0 + 3 * l,
                 m->light_poscom0 + 3 * l, pos))
      mju_copy3(dir, m->light_dir0 + 3 * l);
    const mjtNum* target = targetPoint(d, mode, m->light_targetbodyid[l]);
    if (target) {
      mju_sub3(dir, target, pos);
      mju_normalize3(dir);
    }
  }
}

// ---- inertia ------------------------------------------------------------------------------

// number of entries of sparse row i (1 + ancestors of dof i)
static inline int rowLen(const mjModel* m, int i) {
  return (i + 1 < m->nv ? m->dof_Madr[i + 1] : m->nM) - m->dof_Madr[i];
}

// crb = cinert accumulated from the leaves; M(i,j) = cdof_j' crb(body_i) cdof_i, plus the
// dof's armature (its actuators' included) on the diagonal
void mj_crb(const mjModel* m, mjData* d) {
  mjtNum* crb = d->crb;

  // composite inertias: each body adds its subtree into its parent (not into the world)
  mju_copy(crb, d->cinert, 10 * m->nbody);
  for (int i = m->nbody - 1; i > 0; i--) {
    int p = m->body_parentid[i];
    if (p > 0) mju_addTo(crb + 10 * p, crb + 10 * i, 10);
  }

  // rows of M: diagonal first, then the ancestors
  for (int i = 0; i < m->nv; i++) {
    mjtNum f[6];
    mju_mulInertVec(f, crb + 10 * m->dof_bodyid[i], d->cdof + 6 * i);
    mjtNum* row = d->qM + m->dof_Madr[i];
    row[0] = mju_dot6(f, d->cdof + 6 * i) + mj_armature(m, mjOBJ_DOF, i);
    int k = 1;
    for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j])
      row[k++] = mju_dot6(f, d->cdof + 6 * j);
  }
}

// entries of row i in a factor's layout: with `simple`, dofs of simple bodies
// (dof_simplenum > 0) have a diagonal M block, so their rows keep only the diagonal
static inline int ldLen(const mjModel* m, int i, int simple) {
  return simple && m->dof_simplenum[i] ? 1 : rowLen(m, i);
}

// res += scl * vec over n entries of two different rows (in fours, then pairs)
static inline void rowUpdate(mjtNum* restrict res, const mjtNum* restrict vec, mjtNum scl,
                             int n) {
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    res[j] += vec[j] * scl;
    res[j + 1] += vec[j + 1] * scl;
    res[j + 2] += vec[j + 2] * scl;
    res[j + 3] += vec[j + 3] * scl;
  }
  for (; j + 2 <= n; j += 2) {
    res[j] += vec[j] * scl;
    res[j + 1] += vec[j + 1] * scl;
  }
  if (j < n) res[j] += vec[j] * scl;
}

// res1 += scl1 * vec and res2 += scl2 * vec over n entries of three different rows
static inline void pairUpdate(mjtNum* restrict res1, mjtNum* restrict res2,
                              const mjtNum* restrict vec, mjtNum scl1, mjtNum scl2, int n) {
  for (int j = 0; j < n; j++) {
    res1[j] += vec[j] * scl1;
    res2[j] += vec[j] * scl2;
  }
}

// L'DL from the leaves: for k = nv-1..0 with D_k = the current M(k,k) and every ancestor i of
// k: M(i, j) -= M(k,i) M(k,j) / D_k for j = i and i's ancestors, then L(k,:) = M(k,:)/D_k.
// In the ascending layout, ancestor i sits at offset p of row k, and row i's p+1 entries
// have the same columns as row k's first p+1 entries (simple dofs are never ancestors of
// other rows' nonzeros), so each update is one contiguous row operation.  No pivot is
// clamped: a matrix that is not positive definite (M - h D of a strong fluid, say) factors as
// it is, as MuJoCo's does (a bad qacc then resets the state).
void mj_factorI(const mjModel* m, mjData* d, const mjtNum* mat, mjtNum* ld, mjtNum* diaginv,
                int simple) {
  int nv = m->nv;
  const int* parent = m->dof_parentid;
  size_t mark = mj_markStack(d);
  int* start = (int*)mj_stackAlloc(d, (size_t)nv / 2 + 1);

  // each row's packed start (ldLen entries per row, in dof order; start[nv] the total), and
  // mat copied, each row reversed into ascending column order (read from its end down)
  start[0] = 0;
  for (int i = 0; i < nv; i++) {
    int n = ldLen(m, i, simple);
    const mjtNum* src = mat + m->dof_Madr[i] + n;
    mjtNum* dst = ld + start[i];
    start[i + 1] = start[i] + n;
    for (int k = 0; k < n; k++) dst[k] = *--src;
  }
  mju_zero(ld + start[nv], m->nM - start[nv]);

  // eliminate from the last dof
  for (int k = nv - 1; k >= 0; k--) {
    mjtNum* row = ld + start[k];
    int n = start[k + 1] - start[k];
    mjtNum inv = 1 / row[n - 1];
    for (int i = parent[k], p = n - 2; p >= 0; i = parent[i], p--) {
      if (!row[p]) continue;
      mjtNum* ri = ld + start[i];
      int q = parent[i];

      // parent q = i-1 is the next ancestor: its p entries end where row i starts, one pass
      if (p > 0 && q == i - 1 && row[p - 1]) {
        pairUpdate(ri, ri - p, row, -row[p] * inv, -row[p - 1] * inv, p);
        ri[p] += row[p] * (-row[p] * inv);
        i = q;
        p--;
      } else {
        rowUpdate(ri, row, -row[p] * inv, p + 1);
      }
    }
    mju_scl(row, row, inv, n - 1);
    diaginv[k] = inv;
  }
  mj_freeStack(d, mark);
}

// the factorization of qM itself, in MuJoCo's layout (simple rows diagonal only)
void mj_factorM(const mjModel* m, mjData* d) {
  mj_factorI(m, d, d->qM, d->qLD, d->qLDiagInv, 1);
}

// the inertia of n dofs (ascending, each one's parent dof among them; local[j] the position of
// dof j among them) as a model and data of their own: mi's nv, nM, dof_parentid, dof_Madr and
// dof_simplenum, di's qM, qLD (its simple layout) and qLDiagInv, written into the arrays they
// point to (room for n dofs and m->nM entries); each row keeps its entries, so products and
// solves over them sum as over the whole
void mj_inertiaView(const mjModel* m, const mjData* d, const int* dof, int n, const int* local,
                    mjModel* mi, mjData* di) {
  int nM = 0, nLD = 0, k = 0;
  for (int j = 0, ld = 0; j < m->nv && k < n; j++) {
    int len = rowLen(m, j), lenLD = ldLen(m, j, 1);
    if (j == dof[k]) {
      int parent = m->dof_parentid[j];
      mi->dof_parentid[k] = parent < 0 ? -1 : local[parent];
      mi->dof_Madr[k] = nM;
      mi->dof_simplenum[k] = m->dof_simplenum[j];
      mju_copy(di->qM + nM, d->qM + m->dof_Madr[j], len);
      mju_copy(di->qLD + nLD, d->qLD + ld, lenLD);
      di->qLDiagInv[k] = d->qLDiagInv[j];
      nM += len;
      nLD += lenLD;
      k++;
    }
    ld += lenLD;
  }
  mi->nv = n;
  mi->nM = nM;
}

// x = inv(L' D L) y: solve L' w = y from the leaves, scale by 1/D, solve L x = z from the root;
// row starts are recovered from the row lengths while walking (end of rows for the backward
// pass, running sum for the forward pass)
void mj_solveLD(const mjModel* m, const mjtNum* ld, const mjtNum* diaginv, mjtNum* x,
                const mjtNum* y, int n, int simple) {
  int nv = m->nv;
  const int* parent = m->dof_parentid;
  int total = 0;
  for (int k = 0; k < nv; k++) total += ldLen(m, k, simple);

  for (int v = 0; v < n; v++) {
    mjtNum* xv = x + (size_t)v * nv;
    if (xv != y + (size_t)v * nv) mju_copy(xv, y + (size_t)v * nv, nv);

    // L' w = y: w_k is final once its descendants are done; push it to the ancestors
    const mjtNum* row = ld + total;
    for (int k = nv - 1; k >= 0; k--) {
      int len = ldLen(m, k, simple);
      row -= len;
      mjtNum xk = xv[k];
      if (!xk) continue;
      for (int i = parent[k], p = len - 2; p >= 0; i = parent[i], p--) xv[i] -= row[p] * xk;
    }

    // z = w / D
    for (int k = 0; k < nv; k++) xv[k] *= diaginv[k];

    // L x = z: pull from the (already solved) ancestors, x_k -= sum_p L(k,p) x_p, the sum in
    // two partial sums over alternate entries (two independent chains of additions)
    row = ld;
    for (int k = 0; k < nv; k++) {
      int len = ldLen(m, k, simple), i = parent[k], p = len - 2;
      mjtNum s0 = 0, s1 = 0;
      for (; p >= 1; p -= 2) {
        s0 += row[p] * xv[i];
        i = parent[i];
        s1 += row[p - 1] * xv[i];
        i = parent[i];
      }
      if (p == 0) s0 += row[0] * xv[i];
      xv[k] -= s0 + s1;
      row += len;
    }
  }
}

// X = inv(L' D L) X for n right sides held by rows (X(i, v) at X[i n + v]): mj_solveLD's
// passes with each factor entry updating a whole row (contiguous, paired) at once (AVX2
// where there is)
mjuVECTOR void mj_solveLDRows(const mjModel* m, const mjtNum* ld, const mjtNum* diaginv, mjtNum* X, int n,
                    int simple) {
  int nv = m->nv;
  const int* parent = m->dof_parentid;
  int total = 0;
  for (int k = 0; k < nv; k++) total += ldLen(m, k, simple);

  // L' W = X from the leaves, W / D, then L X = Z from the root
  const mjtNum* row = ld + total;
  for (int k = nv - 1; k >= 0; k--) {
    int len = ldLen(m, k, simple);
    row -= len;
    for (int i = parent[k], p = len - 2; p >= 0; i = parent[i], p--)
      rowUpdate(X + (size_t)i * n, X + (size_t)k * n, -row[p], n);
  }
  for (int k = 0; k < nv; k++) mju_scl(X + (size_t)k * n, X + (size_t)k * n, diaginv[k], n);
  for (int k = 0; k < nv; k++) {
    int len = ldLen(m, k, simple);
    for (int i = parent[k], p = len - 2; p >= 0; i = parent[i], p--)
      rowUpdate(X + (size_t)k * n, X + (size_t)i * n, -row[p], n);
    row += len;
  }
}

// x = inv(M) y with the factor of qM
void mj_solveM(const mjModel* m, mjData* d, mjtNum* x, const mjtNum* y, int n) {
  mj_solveLD(m, d->qLD, d->qLDiagInv, x, y, n, 1);
}

// R = M X for n vectors held by rows (X(i, v) at X[i n + v]; R apart from X): each entry of
// qM updating whole rows, the off-diagonal ones for both triangles
void mj_mulMRows(const mjModel* m, const mjData* d, mjtNum* R, const mjtNum* X, int n) {
  for (int i = 0; i < m->nv; i++)
    mju_scl(R + (size_t)i * n, X + (size_t)i * n, d->qM[m->dof_Madr[i]], n);
  for (int i = 0; i < m->nv; i++) {
    const mjtNum* row = d->qM + m->dof_Madr[i] + 1;
    for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j], row++) {
      rowUpdate(R + (size_t)i * n, X + (size_t)j * n, *row, n);
      rowUpdate(R + (size_t)j * n, X + (size_t)i * n, *row, n);
    }
  }
}

// res = M vec from the rows of qM (each off-diagonal entry used for both triangles); row i's
// sum kept in a register while its ancestors j != i take their terms (res and vec apart)
void mj_mulM(const mjModel* m, const mjData* d, mjtNum* restrict res,
             const mjtNum* restrict vec) {
  for (int i = 0; i < m->nv; i++) {
    const mjtNum* row = d->qM + m->dof_Madr[i];
    res[i] = row[0] * vec[i];
  }
  for (int i = 0; i < m->nv; i++) {
    const mjtNum* row = d->qM + m->dof_Madr[i] + 1;
    mjtNum ri = res[i], vi = vec[i];
    for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j], row++) {
      ri += *row * vec[j];
      res[j] += *row * vi;
    }
    res[i] = ri;
  }
}

// ---- Jacobians -------------------------------------------------------------------------------

// columns of the dofs that move `body`: jacr = cdof_rot, jacp = cdof_lin + cdof_rot x r,
// r = point - subtree_com of the root (cdof is about that point); other columns zero
void mj_jac(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr,
            const mjtNum point[3], int body) {
  int nv = m->nv;
  if (jacp) mju_zero(jacp, 3 * nv);
  if (jacr) mju_zero(jacr, 3 * nv);

  // the last dof on the path to the world: of this body or the nearest ancestor with dofs
  int dof = mj_bodyLastDof(m, body);
  if (dof < 0) return;

  mjtNum r[3];
  mju_sub3(r, point, d->subtree_com + 3 * m->body_rootid[body]);
  for (int j = dof; j >= 0; j = m->dof_parentid[j]) {
    const mjtNum* cdof = d->cdof + 6 * j;
    mjtNum lin[3];
    mju_cross(lin, cdof, r);
    mju_addTo3(lin, cdof + 3);
    for (int k = 0; k < 3; k++) {
      if (jacp) jacp[k * nv + j] = lin[k];
      if (jacr) jacr[k * nv + j] = cdof[k];
    }
  }
}

// res += scl * jacp' vec for the world point `point` moving with `body` (no temporaries):
// entry j gains scl * vec . (cdof_lin_j + cdof_rot_j x r), r = point - root com
void mj_addJacPointDot(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum point[3],
                       int body, const mjtNum vec[3], mjtNum scl) {
  int last = mj_bodyLastDof(m, body);
  if (last < 0) return;
  mjtNum r[3];
  mju_sub3(r, point, d->subtree_com + 3 * m->body_rootid[body]);
  for (int j = last; j >= 0; j = m->dof_parentid[j]) {
    const mjtNum* cdof = d->cdof + 6 * j;
    mjtNum lin[3];
    mju_cross(lin, cdof, r);
    mju_addTo3(lin, cdof + 3);
    res[j] += scl * mju_dot3(lin, vec);
  }
}

// Jacobians at xipos
void mj_jacBodyCom(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int body) {
  mj_jac(m, d, jacp, jacr, d->xipos + 3 * body, body);
}

// Jacobians at site_xpos
void mj_jacSite(const mjModel* m, const mjData* d, mjtNum* jacp, mjtNum* jacr, int site) {
  mj_jac(m, d, jacp, jacr, d->site_xpos + 3 * site, m->site_bodyid[site]);
}

// ---- velocities ------------------------------------------------------------------------------

// cvel and cdof_dot from the root: cvel_b = cvel_parent + sum cdof_j qvel_j over b's dofs;
// cdof_dot_j = cvel x cdof_j with cvel the velocity before j's joint (a ball's three axes,
// and a free joint's rotations, all use the velocity before the ball part); translations of
// a free joint are fixed in the world (cdof_dot = 0)
void mj_comVel(const mjModel* m, mjData* d) {
  if (m->nbody > 0) mju_zero(d->cvel, 6);
  for (int b = 1; b < m->nbody; b++) {
    mjtNum* cvel = d->cvel + 6 * b;
    const mjtNum* pvel = d->cvel + 6 * m->body_parentid[b];
    mju_copy6(cvel, pvel);
    for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
      int adr = m->jnt_dofadr[j], type = m->jnt_type[j];
      const mjtNum* qvel = d->qvel + adr;
      const mjtNum* cdof = d->cdof + 6 * adr;
      mjtNum* cdofdot = d->cdof_dot + 6 * adr;
      int nrot = 1;
      if (type == mjJNT_FREE) {
        // translations: constant axes
        mju_zero(cdofdot, 18);
        for (int k = 0; k < 3; k++) mju_addToScl6(cvel, cdof + 6 * k, qvel[k]);
        qvel += 3, cdof += 18, cdofdot += 18;
        nrot = 3;
      } else if (type == mjJNT_BALL) {
        nrot = 3;
      }
      // rotations (or the one hinge / slide axis): derivative first, then the velocity
      for (int k = 0; k < nrot; k++) mju_crossMotion(cdofdot + 6 * k, cvel, cdof + 6 * k);
      for (int k = 0; k < nrot; k++) mju_addToScl6(cvel, cdof + 6 * k, qvel[k]);
    }
  }
}

// acceleration of body b: a = cacc_parent + sum_j (cdof_dot_j qvel_j + flg_acc cdof_j qacc_j)
static void bodyAcc(const mjModel* m, const mjData* d, int b, const mjtNum cacc_parent[6],
                    int flg_acc, mjtNum a[6]) {
  mju_copy6(a, cacc_parent);
  for (int j = m->body_dofadr[b]; j < m->body_dofadr[b] + m->body_dofnum[b]; j++) {
    mju_addToScl6(a, d->cdof_dot + 6 * j, d->qvel[j]);
    if (flg_acc) mju_addToScl6(a, d->cdof + 6 * j, d->qacc[j]);
  }
}

// acceleration and net force of body b: a as bodyAcc, frc = cinert a + cvel x* (cinert cvel)
static void rneBody(const mjModel* m, const mjData* d, int b, const mjtNum cacc_parent[6],
                    int flg_acc, mjtNum a[6], mjtNum frc[6]) {
  bodyAcc(m, d, b, cacc_parent, flg_acc, a);
  mjtNum ia[6], iv[6], vxiv[6];
  const mjtNum* inert = d->cinert + 10 * b;
  const mjtNum* v = d->cvel + 6 * b;
  mju_mulInertVec(ia, inert, a);
  mju_mulInertVec(iv, inert, v);
  mju_crossForce(vxiv, v, iv);

  // frc = ia + vxiv entry by entry: a vector loop would load pairs that span the separate
  // scalar stores of the products, which stalls; this way they stay in registers
  frc[0] = ia[0] + vxiv[0];
  frc[1] = ia[1] + vxiv[1];
  frc[2] = ia[2] + vxiv[2];
  frc[3] = ia[3] + vxiv[3];
  frc[4] = ia[4] + vxiv[4];
  frc[5] = ia[5] + vxiv[5];
}

// world acceleration: the gravity field as an upward acceleration (rot:lin)
static void worldAcc(const mjModel* m, mjtNum cacc[6]) {
  mju_zero(cacc, 6);
  if (!(m->opt.disableflags & mjDSBL_GRAVITY)) mju_scl3(cacc + 3, m->opt.gravity, -1);
}

// Recursive Newton-Euler with the acceleration of the world -gravity:
//   cacc_b = cacc_parent + sum_j (cdof_dot_j qvel_j + flg_acc cdof_j qacc_j)
//   cfrc_b = cinert_b cacc_b + cvel_b x* (cinert_b cvel_b), summed from the leaves
//   result_i = cdof_i' cfrc_{body(i)}
// with flg_acc = 0 this is the bias force C(q, v) (gravity and Coriolis/centrifugal)
void mj_rne(const mjModel* m, mjData* d, int flg_acc, mjtNum* result) {
  int nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* cacc = mj_stackAlloc(d, 6 * (size_t)nbody);
  mjtNum* cfrc = mj_stackAlloc(d, 6 * (size_t)nbody);

  // accelerations and body forces from the root
  worldAcc(m, cacc);
  for (int b = 1; b < nbody; b++)
    rneBody(m, d, b, cacc + 6 * m->body_parentid[b], flg_acc, cacc + 6 * b, cfrc + 6 * b);

  // subtree forces from the leaves, projected on the dofs
  for (int b = nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (p > 0) mju_addTo6(cfrc + 6 * p, cfrc + 6 * b);
  }
  for (int i = 0; i < m->nv; i++)
    result[i] = mju_dot6(d->cdof + 6 * i, cfrc + 6 * m->dof_bodyid[i]);
  mj_freeStack(d, mark);
}

// res(nv) += jacp' force + jacr' torque for a force and torque acting at a world point of body
void mj_applyFT(const mjModel* m, const mjData* d, const mjtNum force[3],
                const mjtNum torque[3], const mjtNum point[3], int body, mjtNum* res) {
  int last = mj_bodyLastDof(m, body);
  if (last < 0) return;
  mjtNum r[3];
  mju_sub3(r, point, d->subtree_com + 3 * m->body_rootid[body]);

  // jacp_j' f + jacr_j' t = (cdof_lin + cdof_rot x r) . f + cdof_rot . t
  //                       = cdof_lin . f + cdof_rot . (r x f + t)
  mjtNum rf[3];
  mju_cross(rf, r, force);
  mju_addTo3(rf, torque);
  for (int j = last; j >= 0; j = m->dof_parentid[j]) {
    const mjtNum* cdof = d->cdof + 6 * j;
    res[j] += mju_dot3(cdof + 3, force) + mju_dot3(cdof, rf);
  }
}

// world position, orientation and body + 1 of an object (smooth.h)
int mj_objectFrame(const mjModel* m, const mjData* d, int objtype, int id, const mjtNum** pos,
                   const mjtNum** mat) {
  switch (objtype) {
    case mjOBJ_BODY: *pos = d->xipos + 3 * id, *mat = d->ximat + 9 * id; return id + 1;
    case mjOBJ_XBODY: *pos = d->xpos + 3 * id, *mat = d->xmat + 9 * id; return id + 1;
    case mjOBJ_GEOM:
      *pos = d->geom_xpos + 3 * id, *mat = d->geom_xmat + 9 * id;
      return m->geom_bodyid[id] + 1;
    case mjOBJ_SITE:
      *pos = d->site_xpos + 3 * id, *mat = d->site_xmat + 9 * id;
      return m->site_bodyid[id] + 1;
    case mjOBJ_CAMERA:
      *pos = d->cam_xpos + 3 * id, *mat = d->cam_xmat + 9 * id;
      return m->cam_bodyid[id] + 1;
    default: return 0;
  }
}

// 6D velocity (rot:lin) of an object's origin, in the world frame or (flg_local) its own
void mj_objectVelocity(const mjModel* m, const mjData* d, int objtype, int id, mjtNum res[6],
                       int flg_local) {
  const mjtNum *pos = NULL, *mat = NULL;
  int b = mj_objectFrame(m, d, objtype, id, &pos, &mat) - 1;
  if (b < 0) {
    mju_zero(res, 6);
    return;
  }
  mju_transformSpatial(res, d->cvel + 6 * b, 0, pos, d->subtree_com + 3 * m->body_rootid[b],
                       flg_local ? mat : NULL);
}

// 6D acceleration (rot:lin) of an object's origin from cacc (after mj_rnePostConstraint):
// the spatial acceleration moved to the point, plus w x v for the classical linear part
void mj_objectAcceleration(const mjModel* m, const mjData* d, int objtype, int id,
                           mjtNum res[6], int flg_local) {
  const mjtNum *pos = NULL, *mat = NULL;
  int b = mj_objectFrame(m, d, objtype, id, &pos, &mat) - 1;
  if (b < 0) {
    mju_zero(res, 6);
    return;
  }
  const mjtNum* com = d->subtree_com + 3 * m->body_rootid[b];
  mjtNum vel[6], wv[3];
  mju_transformSpatial(vel, d->cvel + 6 * b, 0, pos, com, flg_local ? mat : NULL);
  mju_transformSpatial(res, d->cacc + 6 * b, 0, pos, com, flg_local ? mat : NULL);
  mju_cross(wv, vel, vel + 3);
  mju_addTo3(res + 3, wv);
}

// subtree_angmom (angular momentum of each subtree about its com) from the body com
// velocities bvel (nbody x 6) and subtree_linvel:
//   L_b = I_b w_b + m_b (x_b - c_b) x (v_b - vc_b)
//         + sum_children [L_c + M_c (c_c - c_b) x (vc_c - vc_b)]
static void subtreeAngMom(const mjModel* m, mjData* d, const mjtNum* bvel) {
  // own spin and offset momentum of each body, about its subtree com
  for (int b = 0; b < m->nbody; b++) {
    mjtNum* L = d->subtree_angmom + 3 * b;
    const mjtNum* ximat = d->ximat + 9 * b;
    mjtNum wl[3], dx[3], dv[3], t[3];
    mju_mulMatTVec3(wl, ximat, bvel + 6 * b);
    for (int k = 0; k < 3; k++) wl[k] *= m->body_inertia[3 * b + k];
    mju_mulMatVec3(L, ximat, wl);
    mju_sub3(dx, d->xipos + 3 * b, d->subtree_com + 3 * b);
    mju_sub3(dv, bvel + 6 * b + 3, d->subtree_linvel + 3 * b);
    mju_cross(t, dx, dv);
    mju_addToScl3(L, t, m->body_mass[b]);
  }

  // children's momenta moved to the parent's subtree com
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    mjtNum dx[3], dv[3], t[3];
    mju_sub3(dx, d->subtree_com + 3 * b, d->subtree_com + 3 * p);
    mju_sub3(dv, d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * p);
    mju_cross(t, dx, dv);
    mju_addTo3(d->subtree_angmom + 3 * p, d->subtree_angmom + 3 * b);
    mju_addToScl3(d->subtree_angmom + 3 * p, t, m->body_subtreemass[b]);
  }
}

// subtree_linvel (velocity of each subtree's com) and, with angmom, subtree_angmom (else
// zero: the velocity sensors need the momenta only for a subtreeangmom or user sensor)
void mj_subtreeVelPart(const mjModel* m, mjData* d, int angmom) {
  int nbody = m->nbody;
  size_t mark = mj_markStack(d);
  mjtNum* bvel = mj_stackAlloc(d, 6 * (size_t)nbody);

  // body com velocities, cvel moved from the root's com to xipos (the linear part loses
  // (xipos - com) x w, as in mj_objectVelocity); momenta m v summed from the leaves
  for (int b = 0; b < nbody; b++) {
    const mjtNum* cvel = d->cvel + 6 * b;
    mjtNum* v = bvel + 6 * b;
    mjtNum dif[3], cr[3];
    mju_sub3(dif, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
    mju_cross(cr, dif, cvel);
    mju_copy3(v, cvel);
    mju_sub3(v + 3, cvel + 3, cr);
    mju_scl3(d->subtree_linvel + 3 * b, v + 3, m->body_mass[b]);
  }
  for (int b = nbody - 1; b > 0; b--)
    mju_addTo3(d->subtree_linvel + 3 * m->body_parentid[b], d->subtree_linvel + 3 * b);
  for (int b = 0; b < nbody; b++) {
    mjtNum mass = m->body_subtreemass[b];
    mju_scl3(d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * b,
             1 / (mass > mjMINVAL ? mass : mjMINVAL));
  }

  if (angmom) subtreeAngMom(m, d, bvel);
  else mju_zero(d->subtree_angmom, 3 * nbody);
  mj_freeStack(d, mark);
}

// subtree_linvel and subtree_angmom
void mj_subtreeVel(const mjModel* m, mjData* d) { mj_subtreeVelPart(m, d, 1); }

// ---- accelerations and interaction forces after the constraint solve --------------------------

// the bodies mj_rnePostPart computes, from those whose values are read: a body whose cfrc_int
// is read needs its whole subtree's cfrc_ext and net forces (its cfrc_int sums them), a body
// with a net force its cacc, and a body's cacc its parent's (cacc is summed from the world)
static void postBodies(const mjModel* m, unsigned char* acc, unsigned char* frc) {
  for (int b = 1; b < m->nbody; b++) frc[b] |= frc[m->body_parentid[b]];
  for (int b = m->nbody - 1; b > 0; b--) {
    acc[b] |= frc[b];
    acc[m->body_parentid[b]] |= acc[b];
  }
}

// cacc (with qacc), cfrc_ext (xfrc_applied and the constraint forces about the root com) and
// cfrc_int = cinert cacc + cvel x* (cinert cvel) - cfrc_ext, summed from the leaves, of every
// body or of those postBodies marks: per body the same operations in the same order (smooth.h)
void mj_rnePostPart(const mjModel* m, mjData* d, unsigned char* acc, unsigned char* frc) {
  int nbody = m->nbody;
  if (acc) postBodies(m, acc, frc);

  // external forces: applied wrenches moved from the body com to the root com
  mju_zero(d->cfrc_ext, 6 * nbody);
  for (int b = 1; b < nbody; b++) {
    const mjtNum* xfrc = d->xfrc_applied + 6 * b;
    if (frc && !frc[b]) continue;
    if (!xfrc[0] && !xfrc[1] && !xfrc[2] && !xfrc[3] && !xfrc[4] && !xfrc[5]) continue;
    mjtNum f6[6] = {xfrc[3], xfrc[4], xfrc[5], xfrc[0], xfrc[1], xfrc[2]};
    mju_transformSpatial(d->cfrc_ext + 6 * b, f6, 1,
                         d->subtree_com + 3 * m->body_rootid[b], d->xipos + 3 * b, NULL);
  }

  // constraint forces: contacts, connect and weld (lib/engine/constraint.c)
  mj_addConstraintWrench(m, d, d->cfrc_ext, frc);

  // accelerations and net body forces from the root (a body whose cfrc_int no one reads
  // needs its cacc alone)
  if (nbody > 0) {
    worldAcc(m, d->cacc);
    mju_zero(d->cfrc_int, 6);
  }
  for (int b = 1; b < nbody; b++) {
    const mjtNum* pacc = d->cacc + 6 * m->body_parentid[b];
    mjtNum *cacc = d->cacc + 6 * b, *cfrc = d->cfrc_int + 6 * b;
    if (frc && !frc[b]) {
      // cfrc_ext of such a body may hold a part of its constraint wrenches: zero too
      if (acc[b]) bodyAcc(m, d, b, pacc, 1, cacc);
      else mju_zero(cacc, 6);
      mju_zero(cfrc, 6);
      mju_zero(d->cfrc_ext + 6 * b, 6);
    } else {
      rneBody(m, d, b, pacc, 1, cacc, cfrc);
      mju_subFrom(cfrc, d->cfrc_ext + 6 * b, 6);
    }
  }

  // interaction forces from the leaves (the world's is the total); a marked body's children
  // are all marked
  for (int b = nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (!frc || frc[p]) mju_addTo6(d->cfrc_int + 6 * p, d->cfrc_int + 6 * b);
  }
}

// cacc, cfrc_ext and cfrc_int of every body
void mj_rnePostConstraint(const mjModel* m, mjData* d) { mj_rnePostPart(m, d, NULL, NULL); }

// velocity v and bias acceleration a = Jdot qvel of the world point p moving with body b:
// with r = p - subtree com, the columns of J are cdof_lin + cdof_rot x r, whose derivatives
// are cdof_dot_lin + cdof_dot_rot x r + cdof_rot x v, so a = sum (cdof_dot qvel)_lin +
// (sum cdof_dot qvel)_rot x r + w x v, w the body's angular velocity; alpha the rotational
// sum.  As MuJoCo's Jacobian derivative, a quaternion dof (ball, free rotation) takes
// cdof_dot = cvel x cdof with the whole cvel of its body, not its cdof_dot
void mj_pointBiasAcc(const mjModel* m, const mjData* d, const mjtNum p[3], int body,
                     mjtNum v[3], mjtNum a[3], mjtNum w_out[3], mjtNum alpha_out[3]) {
  mjtNum r[3], w[3] = {0, 0, 0}, alpha[3] = {0, 0, 0}, tmp[3], quatdot[6];
  mju_zero3(v);
  mju_zero3(a);
  int last = mj_bodyLastDof(m, body);
  mju_sub3(r, p, d->subtree_com + 3 * m->body_rootid[body]);
  for (int j = last; j >= 0; j = m->dof_parentid[j]) {
    const mjtNum *cdof = d->cdof + 6 * j, *cdd = d->cdof_dot + 6 * j;
    int jnt = m->dof_jntid[j], type = m->jnt_type[jnt];
    if (type == mjJNT_BALL || (type == mjJNT_FREE && j >= m->jnt_dofadr[jnt] + 3)) {
      mju_crossMotion(quatdot, d->cvel + 6 * m->dof_bodyid[j], cdof);
      cdd = quatdot;
    }
    mjtNum qv = d->qvel[j];
    mju_addToScl3(w, cdof, qv);
    mju_addToScl3(v, cdof + 3, qv);
    mju_addToScl3(alpha, cdd, qv);
    mju_addToScl3(a, cdd + 3, qv);
  }
  // v = v_lin + w x r, a = a_lin + alpha x r + w x v
  if (last >= 0) {
    mju_cross(tmp, w, r);
    mju_addTo3(v, tmp);
    mju_cross(tmp, alpha, r);
    mju_addTo3(a, tmp);
    mju_cross(tmp, w, v);
    mju_addTo3(a, tmp);
  }
  if (w_out) mju_copy3(w_out, w);
  if (alpha_out) mju_copy3(alpha_out, alpha);
}
