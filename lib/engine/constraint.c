// constraint.c: the rows of the soft-constraint model (declared in mj.h and constraint.h), in
// MuJoCo's order: equality (connect, weld, joint, tendon), friction loss (dofs, tendons), limits
// (joints, tendons), contacts (frictionless, pyramidal, elliptic).  Each row has a Jacobian
// (dense or compressed), a position and margin, the approximate diagonal of J inv(M) J' from
// the invweight0 quantities, the regularizer R = (1-d)/d diagApprox from the impedance d of
// solimp, and the reference acceleration aref = -B v - K d (pos - margin) from solref.
//
// The rows are made by one set of functions run twice: first counting rows and Jacobian
// entries, then, once the arena holds that much, writing them.  Nothing allocates from the heap.
#include "engine/constraint.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

#define mjMINMU 1e-5  // smallest friction coefficient a cone divides by
#define MAXROWS 10    // most rows of one constraint: a pyramidal condim-6 contact

// ---- layout ------------------------------------------------------------------------------------

// compressed rows for the sparse option, or for auto with 60 dofs or more
int mj_isSparse(const mjModel* m) {
  return m->opt.jacobian == mjJAC_SPARSE || (m->opt.jacobian == mjJAC_AUTO && m->nv >= 60);
}

// dense rows with their lengths (efc_J_rowlen): when nv >= 12, long enough for the blocks of
// 4 columns past a row's last non-zero to repay keeping them
int mj_denseRowLengths(const mjModel* m) { return !mj_isSparse(m) && m->nv >= 12; }

// ---- the row builder ---------------------------------------------------------------------------

// rows being made: counted (fill = 0), then written (fill = 1) by the same calls
typedef struct {
  const mjModel* m;
  mjData* d;
  int fill;          // 0: count rows and entries; 1: write them into d->efc_*
  int sparse;        // compressed rows
  int rowlen;        // dense rows with their lengths (mj_denseRowLengths)
  int nefc, nJ;      // rows and Jacobian entries made so far
  int maxefc, maxJ;  // room for rows and entries
  int dropped;       // rows refused for lack of room
  int* cols;         // the columns of the current constraint, ascending (nv)
  int* flags;        // per column: bit 0 moves body 1, bit 1 moves body 2 (nv)
  mjtNum* jac;       // the current constraint's rows over cols (MAXROWS x nv)
  mjtNum* basis;     // a contact's rows in its frame before the pyramid (6 x nv)
  mjtNum* jacp;      // translational Jacobian difference over cols (3 x nv)
  mjtNum* jacr;      // rotational Jacobian difference over cols (3 x nv)
} Rows;

// one constraint's rows apart from their Jacobian (which is in Rows.jac over Rows.cols)
typedef struct {
  int type, id;            // mjtConstraint and the id of what is constrained
  int nrow, nnz;           // rows and columns
  mjtNum frictionloss;     // friction loss of every row
  mjtNum pos[MAXROWS];     // position of each row
  mjtNum margin[MAXROWS];  // margin of each row
  mjtNum diag[MAXROWS];    // approximate diagonal of A of each row
} Block;

// append block b (Jacobian r->jac over r->cols); returns its first row, or -1 when it does not
// fit (its rows are counted as dropped)
static int addRows(Rows* r, const Block* b) {
  int nv = r->m->nv, rowsize = r->sparse ? b->nnz : nv;
  if (r->nefc + b->nrow > r->maxefc || r->nJ > r->maxJ - b->nrow * rowsize) {
    r->dropped += b->nrow;
    return -1;
  }
  int first = r->nefc;
  if (r->fill) {
    // a dense row's length: to the end of the block of 4 columns holding its last column, nv
    // if that block is short
    mjData* d = r->d;
    int len = b->nnz ? (r->cols[b->nnz - 1] + 4) & ~3 : 0;
    len = len <= (nv & ~3) ? len : nv;
    for (int i = 0; i < b->nrow; i++) {
      int row = first + i, adr = r->nJ + i * rowsize;
      const mjtNum* val = r->jac + i * b->nnz;
      d->efc_type[row] = b->type;
      d->efc_id[row] = b->id;
      d->efc_J_rownnz[row] = rowsize;
      d->efc_J_rowadr[row] = adr;
      d->efc_pos[row] = b->pos[i];
      d->efc_margin[row] = b->margin[i];
      d->efc_frictionloss[row] = b->frictionloss;
      d->efc_diagApprox[row] = b->diag[i];

      // values: compressed as they are, dense scattered into a zero row
      if (r->sparse) {
        memcpy(d->efc_J_colind + adr, r->cols, sizeof(int) * (size_t)b->nnz);
        mju_copy(d->efc_J + adr, val, b->nnz);
      } else {
        mju_zero(d->efc_J + adr, nv);
        for (int k = 0; k < b->nnz; k++) d->efc_J[adr + r->cols[k]] = val[k];
        if (r->rowlen) d->efc_J_rowlen[row] = len;
      }
    }
  }
  r->nefc += b->nrow;
  r->nJ += b->nrow * rowsize;
  return first;
}

// ---- Jacobians over dof chains -----------------------------------------------------------------

// the dofs moving body b1 or b2 (their chains to the world merged) ascending into r->cols, with
// r->flags bit 0 when the dof moves b1, bit 1 when it moves b2; returns their number
static int bodyChain(Rows* r, int b1, int b2) {
  const mjModel* m = r->m;
  int j1 = mj_bodyLastDof(m, b1), j2 = mj_bodyLastDof(m, b2), n = 0;

  // both chains descend (a dof's parent has a smaller index): merge from the top
  while (j1 >= 0 || j2 >= 0) {
    int j = j1 > j2 ? j1 : j2;
    r->cols[n] = j;
    r->flags[n++] = (j == j1) | (j == j2) << 1;
    if (j == j1) j1 = m->dof_parentid[j1];
    if (j == j2) j2 = m->dof_parentid[j2];
  }

  // ascending
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int c = r->cols[a], f = r->flags[a];
    r->cols[a] = r->cols[b], r->flags[a] = r->flags[b];
    r->cols[b] = c, r->flags[b] = f;
  }
  return n;
}

// count block b over the dofs of bodies b1 and b2: their columns only matter to compressed
// rows (dense rows are nv long)
static void countChainRows(Rows* r, Block* b, int b1, int b2) {
  if (r->sparse) b->nnz = bodyChain(r, b1, b2);
  addRows(r, b);
}

// over the n columns of bodyChain: r->jacp (3 x n) = Jp(p1 on b1) - Jp(p2 on b2) and r->jacr
// (3 x n) = Jr(b1) - Jr(b2); a dof's column at point p is (cdof_rot x (p - c) + cdof_lin,
// cdof_rot) with c the subtree com of the body's root, about which cdof is expressed
static void jacDif(Rows* r, int n, int b1, const mjtNum p1[3], int b2, const mjtNum p2[3]) {
  const mjModel* m = r->m;
  const mjData* d = r->d;
  mjtNum off1[3], off2[3];
  mju_sub3(off1, p1, d->subtree_com + 3 * m->body_rootid[b1]);
  mju_sub3(off2, p2, d->subtree_com + 3 * m->body_rootid[b2]);
  for (int k = 0; k < n; k++) {
    const mjtNum* cdof = d->cdof + 6 * r->cols[k];
    mjtNum lin1[3] = {0, 0, 0}, lin2[3] = {0, 0, 0}, rot1[3] = {0, 0, 0}, rot2[3] = {0, 0, 0};
    if (r->flags[k] & 1) {
      mju_cross(lin1, cdof, off1);
      mju_addTo3(lin1, cdof + 3);
      mju_copy3(rot1, cdof);
    }
    if (r->flags[k] & 2) {
      mju_cross(lin2, cdof, off2);
      mju_addTo3(lin2, cdof + 3);
      mju_copy3(rot2, cdof);
    }
    for (int i = 0; i < 3; i++) {
      r->jacp[i * n + k] = lin1[i] - lin2[i];
      r->jacr[i * n + k] = rot1[i] - rot2[i];
    }
  }
}

// the columns where tendon t1's Jacobian, or t2's (t2 >= 0), is nonzero into r->cols; their number
static int tendonCols(Rows* r, int t1, int t2) {
  int nv = r->m->nv, n = 0;
  const mjtNum* J1 = r->d->ten_J + (size_t)t1 * nv;
  const mjtNum* J2 = t2 >= 0 ? r->d->ten_J + (size_t)t2 * nv : NULL;
  for (int j = 0; j < nv; j++) {
    if (J1[j] || (J2 && J2[j])) r->cols[n++] = j;
  }
  return n;
}

// row (n values over r->cols) += scl * the Jacobian of tendon t
static void addTendonJac(const Rows* r, mjtNum* row, int n, int t, mjtNum scl) {
  const mjtNum* J = r->d->ten_J + (size_t)t * r->m->nv;
  for (int k = 0; k < n; k++) row[k] += scl * J[r->cols[k]];
}

// ---- equality ----------------------------------------------------------------------------------

// approximate inverse mass of body b, translation (rot 0) or rotation (rot 1)
static mjtNum bodyWeight(const mjModel* m, int b, int rot) {
  return m->body_invweight0[2 * b + rot];
}

// the bodies of connect or weld i (constraint.h)
void mj_eqBodies(const mjModel* m, int i, int b[2]) {
  int site = m->eq_objtype[i] == mjOBJ_SITE;
  b[0] = site ? m->site_bodyid[m->eq_obj1id[i]] : m->eq_obj1id[i];
  b[1] = site ? m->site_bodyid[m->eq_obj2id[i]] : m->eq_obj2id[i];
}

// the anchors and frames of connect or weld i (constraint.h)
void mj_eqFrames(const mjModel* m, const mjData* d, int i, mjtNum p1[3], mjtNum p2[3],
                 mjtNum* q1, mjtNum* q2) {
  int s1 = m->eq_obj1id[i], s2 = m->eq_obj2id[i];
  if (m->eq_objtype[i] == mjOBJ_SITE) {
    mju_copy3(p1, d->site_xpos + 3 * s1);
    mju_copy3(p2, d->site_xpos + 3 * s2);
    if (q1) mju_mulQuat(q1, d->xquat + 4 * m->site_bodyid[s1], m->site_quat + 4 * s1);
    if (q2) mju_mulQuat(q2, d->xquat + 4 * m->site_bodyid[s2], m->site_quat + 4 * s2);
    return;
  }
  const mjtNum* data = m->eq_data + 11 * i;
  int weld = m->eq_type[i] == mjEQ_WELD;
  mju_mulMatVec3(p1, d->xmat + 9 * s1, data + (weld ? 3 : 0));
  mju_addTo3(p1, d->xpos + 3 * s1);
  mju_mulMatVec3(p2, d->xmat + 9 * s2, data + (weld ? 0 : 3));
  mju_addTo3(p2, d->xpos + 3 * s2);
  if (q1) mju_mulQuat(q1, d->xquat + 4 * s1, data + 6);
  if (q2) mju_copy4(q2, d->xquat + 4 * s2);
}

// connect (3 rows) and weld (6 rows) of bodies b1, b2 at their anchors p1, p2 with frames q1,
// q2 (mj_eqFrames), q = q2^-1 q1 for the weld:  pos = p1 - p2 (and torquescale vec(q)),
// J = Jp1 - Jp2 (and torquescale times the rows of vec(0.5 q2^-1 [0, Jr1 - Jr2] q1), the time
// derivative of vec(q))
static void bodyEquality(Rows* r, int i) {
  const mjModel* m = r->m;
  const mjData* d = r->d;
  int weld = m->eq_type[i] == mjEQ_WELD, bb[2];
  mj_eqBodies(m, i, bb);
  int b1 = bb[0], b2 = bb[1];
  Block b = {.type = mjCNSTR_EQUALITY, .id = i, .nrow = weld ? 6 : 3};
  if (!r->fill) {
    countChainRows(r, &b, b1, b2);
    return;
  }
  b.nnz = bodyChain(r, b1, b2);

  // anchors in the world, position error and translational rows
  mjtNum p1[3], p2[3], q1[4], q2inv[4];
  mj_eqFrames(m, d, i, p1, p2, q1, q2inv);
  mju_negQuat(q2inv, q2inv);
  jacDif(r, b.nnz, b1, p1, b2, p2);
  mju_copy(r->jac, r->jacp, 3 * b.nnz);
  for (int k = 0; k < 3; k++) {
    b.pos[k] = p1[k] - p2[k];
    b.diag[k] = bodyWeight(m, b1, 0) + bodyWeight(m, b2, 0);
  }

  // weld: orientation error vec(q2^-1 q1) and its Jacobian, both scaled by torquescale
  if (weld) {
    mjtNum err[4], scl = m->eq_data[11 * i + 10];
    mju_mulQuat(err, q2inv, q1);
    for (int k = 0; k < b.nnz; k++) {
      mjtNum w[4] = {0, r->jacr[k], r->jacr[b.nnz + k], r->jacr[2 * b.nnz + k]}, t[4];
      mju_mulQuat(t, w, q1);
      mju_mulQuat(w, q2inv, t);
      for (int a = 0; a < 3; a++) r->jac[(3 + a) * b.nnz + k] = 0.5 * scl * w[1 + a];
    }
    for (int k = 0; k < 3; k++) {
      b.pos[3 + k] = scl * err[1 + k];
      b.diag[3 + k] = bodyWeight(m, b1, 1) + bodyWeight(m, b2, 1);
    }
  }
  addRows(r, &b);
}

// a coupling's polynomial data0 + data1 x + ... + data4 x^4 at x (Horner) and its slope; data0
// and slope 0 without a second object (has2 0)
static mjtNum eqPoly(const mjtNum* data, int has2, mjtNum x, mjtNum* slope) {
  *slope = 0;
  if (!has2) return data[0];
  *slope = data[1] + x * (2 * data[2] + x * (3 * data[3] + x * 4 * data[4]));
  return data[0] + x * (data[1] + x * (data[2] + x * (data[3] + x * data[4])));
}

// joint or tendon coupling, one row: with x1, x2 the joint positions (tendon lengths) relative to
// qpos0 (length0) and data the polynomial coefficients,
//   pos = x1 - (data0 + data1 x2 + ... + data4 x2^4),  J = J1 - poly'(x2) J2   (x2 only if given)
static void scalarEquality(Rows* r, int i) {
  const mjModel* m = r->m;
  const mjData* d = r->d;
  const mjtNum* data = m->eq_data + 11 * i;
  int joint = m->eq_type[i] == mjEQ_JOINT, o1 = m->eq_obj1id[i], o2 = m->eq_obj2id[i];
  Block b = {.type = mjCNSTR_EQUALITY, .id = i, .nrow = 1};

  // columns: the two dofs in order, or the tendons' nonzero columns
  if (joint) {
    int j1 = m->jnt_dofadr[o1], j2 = o2 >= 0 ? m->jnt_dofadr[o2] : -1;
    b.nnz = 1 + (o2 >= 0);
    r->cols[0] = j2 >= 0 && j2 < j1 ? j2 : j1;
    r->cols[b.nnz - 1] = j2 >= 0 && j2 > j1 ? j2 : j1;
  } else {
    b.nnz = tendonCols(r, o1, o2);
  }
  if (!r->fill) {
    addRows(r, &b);
    return;
  }

  // positions relative to the reference configuration and the inverse weights
  mjtNum x1, x2 = 0, w1, w2 = 0;
  if (joint) {
    int a1 = m->jnt_qposadr[o1];
    x1 = d->qpos[a1] - m->qpos0[a1];
    w1 = m->dof_invweight0[m->jnt_dofadr[o1]];
    if (o2 >= 0) {
      int a2 = m->jnt_qposadr[o2];
      x2 = d->qpos[a2] - m->qpos0[a2];
      w2 = m->dof_invweight0[m->jnt_dofadr[o2]];
    }
  } else {
    x1 = d->ten_length[o1] - m->tendon_length0[o1];
    w1 = m->tendon_invweight0[o1];
    if (o2 >= 0) {
      x2 = d->ten_length[o2] - m->tendon_length0[o2];
      w2 = m->tendon_invweight0[o2];
    }
  }

  // the polynomial and its slope at x2; without a second object, data0
  mjtNum slope, poly = eqPoly(data, o2 >= 0, x2, &slope);

  // the row
  mju_zero(r->jac, b.nnz);
  if (joint) {
    for (int k = 0; k < b.nnz; k++) {
      r->jac[k] = r->cols[k] == m->jnt_dofadr[o1] ? 1 : -slope;
    }
  } else {
    addTendonJac(r, r->jac, b.nnz, o1, 1);
    if (o2 >= 0) addTendonJac(r, r->jac, b.nnz, o2, -slope);
  }
  b.pos[0] = x1 - poly;
  b.diag[0] = w1 + w2;
  addRows(r, &b);
}

// every active equality constraint (flex and distance types make no rows)
static void equalityRows(Rows* r) {
  const mjModel* m = r->m;
  for (int i = 0; i < m->neq; i++) {
    if (!r->d->eq_active[i]) continue;
    switch (m->eq_type[i]) {
      case mjEQ_CONNECT:
      case mjEQ_WELD:
        bodyEquality(r, i);
        break;
      case mjEQ_JOINT:
      case mjEQ_TENDON:
        scalarEquality(r, i);
        break;
      default:
        break;
    }
  }
}

// ---- friction loss -----------------------------------------------------------------------------

// one row per dof, then per tendon, with frictionloss > 0: J = e_dof or the tendon's Jacobian
static void frictionRows(Rows* r) {
  const mjModel* m = r->m;
  for (int j = 0; j < m->nv; j++) {
    if (m->dof_frictionloss[j] <= 0) continue;
    Block b = {.type = mjCNSTR_FRICTION_DOF,
               .id = j,
               .nrow = 1,
               .nnz = 1,
               .frictionloss = m->dof_frictionloss[j],
               .diag = {m->dof_invweight0[j]}};
    r->cols[0] = j;
    r->jac[0] = 1;
    addRows(r, &b);
  }
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_frictionloss[t] <= 0) continue;
    Block b = {.type = mjCNSTR_FRICTION_TENDON,
               .id = t,
               .nrow = 1,
               .frictionloss = m->tendon_frictionloss[t],
               .diag = {m->tendon_invweight0[t]}};
    b.nnz = tendonCols(r, t, -1);
    if (r->fill) {
      mju_zero(r->jac, b.nnz);
      addTendonJac(r, r->jac, b.nnz, t, 1);
    }
    addRows(r, &b);
  }
}

// ---- limits ------------------------------------------------------------------------------------

// a row for a scalar limit side at distance dist (< margin) whose Jacobian is already in r->jac
static void limitRow(Rows* r, int type, int id, int nnz, mjtNum dist, mjtNum margin, mjtNum diag) {
  Block b = {.type = type,
             .id = id,
             .nrow = 1,
             .nnz = nnz,
             .pos = {dist},
             .margin = {margin},
             .diag = {diag}};
  addRows(r, &b);
}

// joint limits: hinge and slide, lower (dist = q - range0, J = 1) then upper (dist = range1 - q,
// J = -1) when dist < margin; ball, dist = max(range) - angle of the joint rotation, J = -axis
static void jointLimitRows(Rows* r) {
  const mjModel* m = r->m;
  const mjData* d = r->d;
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j]) continue;
    int type = m->jnt_type[j], dof = m->jnt_dofadr[j];
    const mjtNum* range = m->jnt_range + 2 * j;
    mjtNum margin = m->jnt_margin[j], diag = m->dof_invweight0[dof];
    const mjtNum* q = d->qpos + m->jnt_qposadr[j];
    if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
      for (int side = 0; side < 2; side++) {
        mjtNum dist = side ? range[1] - q[0] : q[0] - range[0];
        if (dist >= margin) continue;
        r->cols[0] = dof;
        r->jac[0] = side ? -1 : 1;
        limitRow(r, mjCNSTR_LIMIT_JOINT, j, 1, dist, margin, diag);
      }
    } else if (type == mjJNT_BALL) {
      mjtNum quat[4], axis[3];
      mju_copy4(quat, q);
      mju_normalize4(quat);
      mju_quat2Vel(axis, quat, 1);
      mjtNum angle = mju_normalize3(axis);
      mjtNum dist = fmax(range[0], range[1]) - angle;
      if (dist >= margin) continue;
      for (int k = 0; k < 3; k++) {
        r->cols[k] = dof + k;
        r->jac[k] = -axis[k];
      }
      limitRow(r, mjCNSTR_LIMIT_JOINT, j, 3, dist, margin, diag);
    }
  }
}

// tendon limits: lower (dist = length - range0, J = ten_J), then upper (dist = range1 - length,
// J = -ten_J) when dist < margin
static void tendonLimitRows(Rows* r) {
  const mjModel* m = r->m;
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_limited[t]) continue;
    const mjtNum* range = m->tendon_range + 2 * t;
    mjtNum len = r->d->ten_length[t], margin = m->tendon_margin[t];
    for (int side = 0; side < 2; side++) {
      mjtNum dist = side ? range[1] - len : len - range[0];
      if (dist >= margin) continue;
      int nnz = tendonCols(r, t, -1);
      if (r->fill) {
        mju_zero(r->jac, nnz);
        addTendonJac(r, r->jac, nnz, t, side ? -1 : 1);
      }
      limitRow(r, mjCNSTR_LIMIT_TENDON, t, nnz, dist, margin, m->tendon_invweight0[t]);
    }
  }
}

// ---- contacts ----------------------------------------------------------------------------------

// the rows of contact i when it is included (not excluded, dist < includemargin or adhesive:
// an adhesive contact in the gap keeps its normal row, which pulls across it): in the contact
// frame (normal, tangent1, tangent2) the Jacobian of body 2 minus body 1 at the contact point,
// basis rows  n.Jp, t1.Jp, t2.Jp, n.Jr, t1.Jr, t2.Jr  (the first dim of them);
//   condim 1       1 row: the normal
//   elliptic       dim rows: the basis; pos and margin only on the normal
//   pyramidal      2 (dim-1) rows: normal +- mu_k basis_k, k = 1 .. dim-1
// The approximate diagonal uses tran, the bodies' translational inverse weights, and builds
// the cone's regularizer into it (R = (1-d)/d diag then makes the inverse problem exact):
//   elliptic   tran for the normal, tran mu0^2 / (impratio mu_k^2) for friction row k
//   pyramidal  2 mu0^2 (1 + mu0^2) tran / impratio for every row
// and the regularized cone's friction is mu = mu0 / sqrt(impratio)
static void contactRows(Rows* r) {
  const mjModel* m = r->m;
  mjData* d = r->d;
  int pyramid = m->opt.cone == mjCONE_PYRAMIDAL;
  for (int i = 0; i < d->ncon; i++) {
    mjContact* con = d->contact + i;
    if (r->fill) con->efc_address = -1, con->mu = 0;
    if (con->exclude || !(con->dist < con->includemargin || con->adhesion)) continue;
    int dim = con->dim, b1 = m->geom_bodyid[con->geom1], b2 = m->geom_bodyid[con->geom2];
    Block b = {.id = i};
    b.type = dim == 1  ? mjCNSTR_CONTACT_FRICTIONLESS
             : pyramid ? mjCNSTR_CONTACT_PYRAMIDAL
                       : mjCNSTR_CONTACT_ELLIPTIC;
    b.nrow = b.type == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (dim - 1) : dim;
    if (!r->fill) {
      countChainRows(r, &b, b2, b1);
      continue;
    }
    b.nnz = bodyChain(r, b2, b1);

    // the basis rows: in place for the elliptic cone, else in scratch for the pyramid's rows
    int n = b.nnz;
    jacDif(r, n, b2, con->pos, b1, con->pos);
    mjtNum* basis = b.type == mjCNSTR_CONTACT_PYRAMIDAL ? r->basis : r->jac;
    for (int k = 0; k < dim; k++) {
      const mjtNum* axis = con->frame + 3 * (k % 3);
      const mjtNum* J = k < 3 ? r->jacp : r->jacr;
      for (int c = 0; c < n; c++) {
        basis[k * n + c] = axis[0] * J[c] + axis[1] * J[n + c] + axis[2] * J[2 * n + c];
      }
    }

    // rows, positions, margins and diagonals of the cone
    mjtNum tran = bodyWeight(m, b1, 0) + bodyWeight(m, b2, 0), mu0 = con->friction[0];
    mjtNum ratio = m->opt.impratio;
    for (int k = 0; k < b.nrow; k++) {
      b.pos[k] = con->dist;
      b.margin[k] = con->includemargin;
      b.diag[k] = tran;
    }
    if (b.type == mjCNSTR_CONTACT_PYRAMIDAL) {
      for (int k = 1; k < dim; k++) {
        mjtNum mu = con->friction[k - 1];
        mjtNum* pos = r->jac + 2 * (k - 1) * n;
        for (int c = 0; c < n; c++) {
          mjtNum normal = basis[c], fric = mu * basis[k * n + c];
          pos[c] = normal + fric;
          pos[n + c] = normal - fric;
        }
      }
      for (int k = 0; k < b.nrow; k++) b.diag[k] = 2 * mu0 * mu0 * (1 + mu0 * mu0) * tran / ratio;
    } else if (b.type == mjCNSTR_CONTACT_ELLIPTIC) {
      for (int k = 1; k < dim; k++) {
        mjtNum mu = mju_maxc(con->friction[k - 1], mjMINMU);
        b.pos[k] = b.margin[k] = 0;
        b.diag[k] = tran * mu0 * mu0 / (ratio * mu * mu);
      }
    }
    if (dim > 1) con->mu = mu0 / sqrt(ratio);
    con->efc_address = addRows(r, &b);
  }
}

// ---- making the rows ---------------------------------------------------------------------------

// every kind of row the flags allow, in MuJoCo's order
static void makeRows(Rows* r) {
  int dis = r->m->opt.disableflags;
  if (!(dis & mjDSBL_EQUALITY)) equalityRows(r);
  if (!(dis & mjDSBL_FRICTIONLOSS)) frictionRows(r);
  if (!(dis & mjDSBL_LIMIT)) {
    jointLimitRows(r);
    tendonLimitRows(r);
  }
  if (!(dis & mjDSBL_CONTACT)) contactRows(r);
}

// the efc_* arrays of one step: X(type, name, count), count in nefc and nJ
// clang-format off
#define EFC_ARRAYS(X)                                                                            \
  X(int, efc_type, nefc) X(int, efc_id, nefc) X(int, efc_J_rownnz, nefc)                         \
  X(int, efc_J_rowadr, nefc) X(int, efc_J_colind, sparse ? nJ : 0) X(mjtNum, efc_J, nJ)          \
  X(int, efc_J_rowlen, rowlen ? nefc : 0)                                                        \
  X(mjtNum, efc_pos, nefc) X(mjtNum, efc_margin, nefc) X(mjtNum, efc_frictionloss, nefc)         \
  X(mjtNum, efc_diagApprox, nefc) X(mjtNum, efc_KBIP, 4 * nefc) X(mjtNum, efc_D, nefc)           \
  X(mjtNum, efc_R, nefc) X(mjtNum, efc_vel, nefc) X(mjtNum, efc_aref, nefc)                      \
  X(mjtNum, efc_b, nefc) X(mjtNum, efc_force, nefc) X(int, efc_state, nefc)
// clang-format on

// the efc_* arrays for nefc rows and nJ Jacobian entries (compressed when sparse, with row
// lengths when rowlen) from the arena; 0 when it is full
static int allocEfc(mjData* d, size_t nefc, size_t nJ, int sparse, int rowlen) {
  // one allocation of their total, each array where an allocation of its own would put it:
  // the arena grows down, so each one ends where the one before it begins
  size_t total = 0;
#define X(type, name, count) total += mj_align8(sizeof(type) * (count));
  EFC_ARRAYS(X)
#undef X
  char* top = mj_arenaAlloc(d, total);
  if (!top) return 0;
  top += total;
#define X(type, name, count) d->name = (type*)(top -= mj_align8(sizeof(type) * (count)));
  EFC_ARRAYS(X)
#undef X
  return 1;
}

// the efc_* arrays at the same distance below the arena's new top `to` as below `from`
// (none before the first constraint stage)
void mj_moveEfc(mjData* d, const char* from, char* to) {
  if (!d->efc_type) return;
#define X(type, name, count) d->name = (type*)(to - (from - (const char*)d->name));
  EFC_ARRAYS(X)
#undef X
}

// the constraint rows of the current positions: count, allocate, write, then the impedance
void mj_makeConstraint(const mjModel* m, mjData* d) {
  int nv = m->nv;
  d->nefc = d->nJ = 0;
  for (int i = 0; i < d->ncon; i++) d->contact[i].efc_address = -1;
  allocEfc(d, 0, 0, 0, 0);
  if (m->opt.disableflags & mjDSBL_CONSTRAINT) return;

  // scratch for one constraint's columns and rows
  size_t mark = mj_markStack(d);
  Rows r = {.m = m,
            .d = d,
            .sparse = mj_isSparse(m),
            .rowlen = mj_denseRowLengths(m),
            .maxefc = d->njmax,
            .maxJ = INT_MAX};
  r.cols = (int*)mj_stackAlloc(d, (size_t)nv);
  r.flags = (int*)mj_stackAlloc(d, (size_t)nv);
  r.jac = mj_stackAlloc(d, (size_t)(MAXROWS + 12) * nv);
  r.basis = r.jac + MAXROWS * nv;
  r.jacp = r.basis + 6 * nv;
  r.jacr = r.jacp + 3 * nv;

  // count, then allocate what was counted (all or nothing)
  makeRows(&r);
  if (r.dropped) mj_warning(d, mjWARN_CNSTRFULL, r.nefc + r.dropped);
  if (!allocEfc(d, (size_t)r.nefc, (size_t)r.nJ, r.sparse, r.rowlen)) {
    mj_warning(d, mjWARN_CNSTRFULL, r.nefc);
    allocEfc(d, 0, 0, 0, 0);
    mj_freeStack(d, mark);
    return;
  }

  // write: the same rows, within what was allocated
  r.fill = 1;
  r.maxefc = r.nefc, r.maxJ = r.nJ;
  r.nefc = r.nJ = r.dropped = 0;
  makeRows(&r);
  d->nefc = r.nefc;
  d->nJ = r.nJ;
  mj_freeStack(d, mark);
  mj_makeImpedance(m, d);
}

// ---- impedance, regularizer, reference ---------------------------------------------------------

// d(r) and d'(r) of a clamped solimp (see constraint.h); flat when d0 = dwidth or width ~ 0
void mju_impedance(const mjtNum solimp[5], mjtNum r, mjtNum* imp, mjtNum* impP) {
  mjtNum d0 = solimp[0], d1 = solimp[1], width = solimp[2], mid = solimp[3], p = solimp[4];
  if (d0 == d1 || width <= mjMINVAL) {
    *imp = 0.5 * (d0 + d1);
    *impP = 0;
    return;
  }

  // saturated: no violation, or at least width
  mjtNum x = fabs(r) / width, sgn = r < 0 ? -1 : 1;
  if (x >= 1 || x <= 0) {
    *imp = x >= 1 ? d1 : d0;
    *impP = 0;
    return;
  }

  // the sigmoid y(x) and its slope: linear for power 1, else two power pieces meeting at mid
  // (power 2, the default, by products instead of pow: the same values to the last bit or
  // one unit of it)
  mjtNum y, dy;
  if (p == 1) {
    y = x, dy = 1;
  } else if (p == 2) {
    mjtNum t = x <= mid ? x : 1 - x, a = 1 / (x <= mid ? mid : 1 - mid);
    y = a * (t * t), dy = 2 * a * t;
    if (x > mid) y = 1 - y;
  } else if (x <= mid) {
    mjtNum a = 1 / pow(mid, p - 1);
    y = a * pow(x, p), dy = p * a * pow(x, p - 1);
  } else {
    mjtNum a = 1 / pow(1 - mid, p - 1);
    y = 1 - a * pow(1 - x, p), dy = p * a * pow(1 - x, p - 1);
  }
  *imp = d0 + y * (d1 - d0);
  *impP = dy * sgn * (d1 - d0) / width;
}

// the solref, solimp and violation of row i (pos - margin; connect and weld: the norm of their
// rows' positions; contacts: dist - includemargin on every row), and whether it is a friction
// row (no stiffness): friction loss, and the friction rows of elliptic contacts (their
// solreffriction when it is set)
static int rowParams(const mjModel* m, const mjData* d, int i, const mjtNum** ref,
                     const mjtNum** imp, mjtNum* viol) {
  int id = d->efc_id[i];
  *viol = d->efc_pos[i] - d->efc_margin[i];
  switch (d->efc_type[i]) {
    case mjCNSTR_EQUALITY:
      *ref = m->eq_solref + 2 * id, *imp = m->eq_solimp + 5 * id;

      // connect and weld: the norm of the whole position error (3 or 6 rows) on every row
      if (m->eq_type[id] == mjEQ_CONNECT || m->eq_type[id] == mjEQ_WELD) {
        int first = i, n = m->eq_type[id] == mjEQ_WELD ? 6 : 3;
        while (first > 0 && d->efc_type[first - 1] == mjCNSTR_EQUALITY &&
               d->efc_id[first - 1] == id) {
          first--;
        }
        *viol = mju_norm(d->efc_pos + first, n);
      }
      return 0;
    case mjCNSTR_FRICTION_DOF:
      *ref = m->dof_solref + 2 * id, *imp = m->dof_solimp + 5 * id;
      return 1;
    case mjCNSTR_FRICTION_TENDON:
      *ref = m->tendon_solref_fri + 2 * id, *imp = m->tendon_solimp_fri + 5 * id;
      return 1;
    case mjCNSTR_LIMIT_JOINT:
      *ref = m->jnt_solref + 2 * id, *imp = m->jnt_solimp + 5 * id;
      return 0;
    case mjCNSTR_LIMIT_TENDON:
      *ref = m->tendon_solref_lim + 2 * id, *imp = m->tendon_solimp_lim + 5 * id;
      return 0;
    default:
      break;
  }

  // contacts: the impedance of the normal's violation on every row
  const mjContact* con = d->contact + id;
  int friction = d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC && i > con->efc_address;
  *ref = friction && (con->solreffriction[0] || con->solreffriction[1]) ? con->solreffriction
                                                                        : con->solref;
  *imp = con->solimp;
  *viol = con->dist - con->includemargin;
  return friction;
}

// efc_KBIP, efc_R and efc_D of every row: with d = d(pos - margin) of the clamped solimp and
// dmax = dwidth,  R = max(mjMINVAL, (1-d)/d diagApprox),  D = 1/R,  and from solref
//   (timeconst, dampratio), timeconst >= 2 timestep unless refsafe is disabled:
//        K = 1 / (dmax^2 timeconst^2 dampratio^2),  B = 2 / (dmax timeconst)
//   (-stiffness, -damping):  K = stiffness / dmax^2,  B = damping / dmax
// K = 0 on friction rows; KBIP = (K, B, d, d')
void mj_makeImpedance(const mjModel* m, mjData* d) {
  int refsafe = !(m->opt.disableflags & mjDSBL_REFSAFE);
  // the previous row's parameters and results: a row with the same ones (the rows of one
  // contact) takes its d, d', K and B as they are, the same numbers computed once
  const mjtNum *lastRef = NULL, *lastImp = NULL;
  mjtNum lastViol = 0;
  int lastFriction = -1;
  for (int i = 0; i < d->nefc; i++) {
    const mjtNum *ref, *solimp0;
    mjtNum viol, solimp[5], imp, impP, *kbip = d->efc_KBIP + 4 * i;
    int friction = rowParams(m, d, i, &ref, &solimp0, &viol);
    if (ref == lastRef && solimp0 == lastImp && viol == lastViol && friction == lastFriction) {
      mju_copy4(kbip, kbip - 4);
      d->efc_R[i] = mju_maxc((1 - kbip[2]) * d->efc_diagApprox[i] / kbip[2], mjMINVAL);
      d->efc_D[i] = 1 / d->efc_R[i];
      continue;
    }
    lastRef = ref, lastImp = solimp0, lastViol = viol, lastFriction = friction;

    // solimp clamped: d0, dwidth, midpoint within [mjMINIMP, mjMAXIMP], width >= 0, power >= 1
    mju_copy(solimp, solimp0, 5);
    for (int k = 0; k < 4; k++) {
      if (k != 2) solimp[k] = mju_minc(mju_maxc(solimp[k], mjMINIMP), mjMAXIMP);
    }
    solimp[2] = fmax(0, solimp[2]);
    solimp[4] = mju_maxc(solimp[4], 1);
    mju_impedance(solimp, viol, &imp, &impP);

    // regularizer
    d->efc_R[i] = mju_maxc((1 - imp) * d->efc_diagApprox[i] / imp, mjMINVAL);
    d->efc_D[i] = 1 / d->efc_R[i];

    // stiffness and damping
    mjtNum dmax = solimp[1];
    if (ref[0] > 0) {
      mjtNum tc = refsafe ? mju_maxc(ref[0], 2 * m->opt.timestep) : ref[0], dr = ref[1];
      kbip[0] = 1 / mju_maxc(dmax * dmax * tc * tc * dr * dr, mjMINVAL);
      kbip[1] = 2 / mju_maxc(dmax * tc, mjMINVAL);
    } else {
      kbip[0] = -ref[0] / mju_maxc(dmax * dmax, mjMINVAL);
      kbip[1] = -ref[1] / mju_maxc(dmax, mjMINVAL);
    }
    if (friction) kbip[0] = 0;
    kbip[2] = imp;
    kbip[3] = impP;
  }
}

// the weld's rotational Jdot qvel (constraint.h): the derivative of its rows'
// torquescale/2 vec(q2^-1 [0, Jr1 - Jr2] q1) qvel (q1, q2 its frames) by the product rule,
// each frame moving as dq/dt = [0, omega] q / 2 (omega in the world frame), dw = w1 - w2,
// dal = al1 - al2:  scl/2 vec(dq2^-1 [0, dw] q1 + q2^-1 [0, dal] q1 + q2^-1 [0, dw] dq1)
void mj_weldBiasRot(const mjtNum q1[4], const mjtNum q2[4], mjtNum scl, const mjtNum w1[3],
                    const mjtNum w2[3], const mjtNum al1[3], const mjtNum al2[3],
                    mjtNum res[3]) {
  mjtNum q2inv[4], dq1[4], dq2[4], dq2inv[4], sum[4] = {0, 0, 0, 0};
  mjtNum dw[4] = {0}, dal[4] = {0}, o1[4] = {0}, o2[4] = {0}, t[4], u[4];
  mju_negQuat(q2inv, q2);
  for (int k = 0; k < 3; k++) {
    dw[1 + k] = w1[k] - w2[k], dal[1 + k] = al1[k] - al2[k];
    o1[1 + k] = 0.5 * w1[k], o2[1 + k] = 0.5 * w2[k];
  }
  mju_mulQuat(dq1, o1, q1);
  mju_mulQuat(dq2, o2, q2);
  mju_negQuat(dq2inv, dq2);
  const mjtNum* left[3] = {dq2inv, q2inv, q2inv};
  const mjtNum* mid[3] = {dw, dal, dw};
  const mjtNum* right[3] = {q1, q1, dq1};
  for (int k = 0; k < 3; k++) {
    mju_mulQuat(t, mid[k], right[k]);
    mju_mulQuat(u, left[k], t);
    for (int c = 0; c < 4; c++) sum[c] += u[c];
  }
  for (int k = 0; k < 3; k++) res[k] = 0.5 * scl * sum[1 + k];
}

// aref[i..] -= Jdot qvel of the connect or weld whose rows start at i (MuJoCo 3.7 on): the
// anchors' relative bias acceleration a1 - a2 on the translational rows, mj_weldBiasRot on a
// weld's rotational rows
static void equalityBias(const mjModel* m, const mjData* d, int i, mjtNum* aref) {
  int id = d->efc_id[i], b[2];
  mjtNum p1[3], p2[3], q1[4], q2[4], v[3], a1[3], a2[3], w1[3], w2[3], al1[3], al2[3], rot[3];
  mj_eqBodies(m, id, b);
  mj_eqFrames(m, d, id, p1, p2, q1, q2);
  mj_pointBiasAcc(m, d, p1, b[0], v, a1, w1, al1);
  mj_pointBiasAcc(m, d, p2, b[1], v, a2, w2, al2);
  for (int k = 0; k < 3; k++) aref[i + k] -= a1[k] - a2[k];
  if (m->eq_type[id] != mjEQ_WELD) return;
  mj_weldBiasRot(q1, q2, m->eq_data[11 * id + 10], w1, w2, al1, al2, rot);
  for (int k = 0; k < 3; k++) aref[i + 3 + k] -= rot[k];
}

// ---- moving surfaces (geom surfacevel) ----------------------------------------------------------

// rows (nrow, +=) from basis values b (dim) of contact con whose first row has type `type`:
// the normal alone, the elliptic basis, or the pyramid's b0 +- mu_i b_i
void mj_contactBasisToRows(const mjContact* con, int type, const mjtNum* b, mjtNum* rows) {
  if (type != mjCNSTR_CONTACT_PYRAMIDAL) {
    mju_addTo(rows, b, con->dim);
    return;
  }
  for (int i = 1; i < con->dim; i++) {
    rows[2 * i - 2] += b[0] + con->friction[i - 1] * b[i];
    rows[2 * i - 1] += b[0] - con->friction[i - 1] * b[i];
  }
}

// the velocity field of geom g's surface at point p in the world: with R, x its frame and
// (a, w) its geom_surfacevel, lin = R a + ang x (p - x), ang = R w
void mj_geomSurfaceVel(const mjModel* m, const mjData* d, int g, const mjtNum p[3],
                       mjtNum lin[3], mjtNum ang[3]) {
  const mjtNum* sv = m->geom_surfacevel + 6 * g;
  mjtNum arm[3], wxr[3];
  mju_mulMatVec3(lin, d->geom_xmat + 9 * g, sv);
  mju_mulMatVec3(ang, d->geom_xmat + 9 * g, sv + 3);
  mju_sub3(arm, p, d->geom_xpos + 3 * g);
  mju_cross(wxr, ang, arm);
  mju_addTo3(lin, wxr);
}

// the basis velocities cs (6) of contact con's moving surfaces, geom 2's field less geom 1's at
// the contact point (mj_geomSurfaceVel), in the contact frame: cs = (0, t1'lin, t2'lin, n'ang,
// 0, 0), the surfaces sliding and spinning only (no push along the normal, no rolling); 0 when
// neither geom's surface moves
int mj_contactSurfaceVel(const mjModel* m, const mjData* d, const mjContact* con, mjtNum cs[6]) {
  int g[2] = {con->geom1, con->geom2}, moving = 0;
  mjtNum lin[3] = {0, 0, 0}, ang[3] = {0, 0, 0}, gl[3], ga[3];
  for (int s = 0; s < 2; s++) {
    if (mju_isZero(m->geom_surfacevel + 6 * g[s], 6)) continue;
    moving = 1;
    mj_geomSurfaceVel(m, d, g[s], con->pos, gl, ga);
    mju_addToScl3(lin, gl, s ? 1 : -1);
    mju_addToScl3(ang, ga, s ? 1 : -1);
  }
  if (!moving) return 0;
  mju_mulMatVec3(cs, con->frame, lin);
  mju_mulMatVec3(cs + 3, con->frame, ang);
  cs[0] = cs[4] = cs[5] = 0;
  return 1;
}

// efc_vel (+=) of the contact rows: the velocity relative to the moving surfaces, J qvel +
// the basis velocities of mj_contactSurfaceVel in the rows (pyramid: +- mu_i cs_i)
static void surfaceVel(const mjModel* m, mjData* d) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    mjtNum cs[6];
    if (con->efc_address < 0 || con->dim == 1 || !mj_contactSurfaceVel(m, d, con, cs)) continue;
    mj_contactBasisToRows(con, d->efc_type[con->efc_address], cs,
                          d->efc_vel + con->efc_address);
  }
}

// ---- adhesion (geom adhesion) ------------------------------------------------------------------

// the adhesion of contact con's row r (from its first): the whole delta on the normal row (a
// frictionless or elliptic contact; 0 on the friction rows), delta / (2 (dim-1)) on each edge
// of a pyramid (whose edges sum to the normal force)
mjtNum mj_rowAdhesion(const mjContact* con, int type, int r) {
  if (type == mjCNSTR_CONTACT_PYRAMIDAL) return con->adhesion / (2 * (con->dim - 1));
  return r ? 0 : con->adhesion;
}

// efc_aref (+=) R delta on the rows of adhesive contacts (mj_rowAdhesion): with the passive pull
// -delta along the normal (mj_passive) the solver's force f is the net force plus delta, so the
// cone it keeps f in is the friction cone translated down the normal by delta (the friction
// budget mu (f_N + delta)) while the net force's compression branch stays as without adhesion
static void adhesionRef(mjData* d) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    int adr = con->efc_address;
    if (!con->adhesion || adr < 0) continue;
    int type = d->efc_type[adr];
    int nrow = type == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (con->dim - 1) : 1;
    for (int r = 0; r < nrow; r++)
      d->efc_aref[adr + r] += d->efc_R[adr + r] * mj_rowAdhesion(con, type, r);
  }
}

// ---- reference acceleration --------------------------------------------------------------------

// efc_vel = J qvel (relative to moving surfaces on contact rows: surfaceVel) and efc_aref =
// -B vel - K d (pos - margin) (+ R delta on adhesive contacts: adhesionRef), less Jdot qvel for
// connect and weld rows (equalityBias)
void mj_referenceConstraint(const mjModel* m, mjData* d) {
  mj_mulJacVec(m, d, d->efc_vel, d->qvel);
  surfaceVel(m, d);
  for (int i = 0; i < d->nefc; i++) {
    const mjtNum* kbip = d->efc_KBIP + 4 * i;
    d->efc_aref[i] =
        -kbip[1] * d->efc_vel[i] - kbip[0] * kbip[2] * (d->efc_pos[i] - d->efc_margin[i]);
  }
  adhesionRef(d);
  for (int i = 0; i < d->nefc && d->efc_type[i] == mjCNSTR_EQUALITY; i++) {
    int type = m->eq_type[d->efc_id[i]];
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) continue;
    equalityBias(m, d, i, d->efc_aref);
    i += type == mjEQ_WELD ? 5 : 2;
  }
}

// ---- products with the Jacobian ---------------------------------------------------------------

// whether every one of the n values of vec is finite
static int allFinite(const mjtNum* vec, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(vec[i])) return 0;
  }
  return 1;
}

// res (nefc) = J vec (nv); a dense row by mju_dot over its efc_J_rowlen columns when kept and
// vec is finite (the zeros beyond, whole blocks of 4 or none, would add +-0 to its partial
// sums, which cannot be -0), else over nv
void mj_mulJacVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  int nv = m->nv;
  if (!mj_isSparse(m)) {
    if (!mj_denseRowLengths(m) || !allFinite(vec, nv)) {
      mju_mulMatVec(res, d->efc_J, vec, d->nefc, nv);
      return;
    }
    for (int i = 0; i < d->nefc; i++) {
      res[i] = mju_dot(d->efc_J + (size_t)i * nv, vec, d->efc_J_rowlen[i]);
    }
    return;
  }
  for (int i = 0; i < d->nefc; i++) {
    int adr = d->efc_J_rowadr[i], n = d->efc_J_rownnz[i];
    const mjtNum* J = d->efc_J + adr;
    const int* col = d->efc_J_colind + adr;
    mjtNum s = 0;
    for (int k = 0; k < n; k++) s += J[k] * vec[col[k]];
    res[i] = s;
  }
}

// row(nv) = row r of efc_J, dense or sparse
void mj_efcRow(const mjModel* m, const mjData* d, int r, mjtNum* row) {
  int nv = m->nv;
  if (!mj_isSparse(m)) {
    mju_copy(row, d->efc_J + (size_t)r * nv, nv);
    return;
  }
  mju_zero(row, nv);
  int adr = d->efc_J_rowadr[r];
  for (int k = 0; k < d->efc_J_rownnz[r]; k++) row[d->efc_J_colind[adr + k]] = d->efc_J[adr + k];
}

// res (nv) = J' vec (nefc); a dense J row by row where vec is not zero (as mju_mulMatTVec),
// over the row's efc_J_rowlen columns when kept and vec is finite (the zeros beyond would add
// +-0 to sums that cannot be -0)
void mj_mulJacTVec(const mjModel* m, const mjData* d, mjtNum* res, const mjtNum* vec) {
  int nv = m->nv;
  if (!mj_isSparse(m)) {
    const int* len = mj_denseRowLengths(m) ? d->efc_J_rowlen : NULL;
    mju_mulMatTVecLen(res, d->efc_J, vec, d->nefc, nv, len);
    return;
  }
  mju_zero(res, nv);
  for (int i = 0; i < d->nefc; i++) {
    int adr = d->efc_J_rowadr[i], n = d->efc_J_rownnz[i];
    const mjtNum* J = d->efc_J + adr;
    const int* col = d->efc_J_colind + adr;
    for (int k = 0; k < n; k++) res[col[k]] += J[k] * vec[i];
  }
}

// ---- constraint forces on bodies ---------------------------------------------------------------

// the force of contact id in its frame (normal, tangent1, tangent2, spin, roll1, roll2) from its
// rows' efc_force; a pyramid's edges f(2k-2), f(2k-1) give normal = sum of all edges and
// friction k = mu_k (f(2k-2) - f(2k-1)); the net force: the normal less the contact's adhesion
// (negative under tension); zero for a contact without rows
void mj_contactForce(const mjModel* m, const mjData* d, int id, mjtNum result[6]) {
  (void)m;  // MuJoCo's signature: the contact itself carries its cone
  const mjContact* con = d->contact + id;
  int adr = con->efc_address, dim = con->dim;
  mju_zero(result, 6);
  if (adr < 0) return;
  const mjtNum* f = d->efc_force + adr;
  if (dim > 1 && d->efc_type[adr] == mjCNSTR_CONTACT_PYRAMIDAL) {
    for (int k = 0; k < 2 * (dim - 1); k++) result[0] += f[k];
    for (int k = 1; k < dim; k++) result[k] = con->friction[k - 1] * (f[2 * k - 2] - f[2 * k - 1]);
  } else {
    mju_copy(result, f, dim);
  }
  result[0] -= con->adhesion;
}

// cfrc[b] += sgn (torque + (point - c) x force, force), c the subtree com of b's root; not
// for the world
static void addWrench(const mjModel* m, const mjData* d, mjtNum* cfrc, int b,
                      const mjtNum force[3], const mjtNum torque[3], const mjtNum point[3],
                      mjtNum sgn) {
  if (b <= 0) return;
  mjtNum off[3], moment[3];
  mju_sub3(off, point, d->subtree_com + 3 * m->body_rootid[b]);
  mju_cross(moment, off, force);
  for (int k = 0; k < 3; k++) {
    cfrc[6 * b + k] += sgn * (torque[k] + moment[k]);
    cfrc[6 * b + 3 + k] += sgn * force[k];
  }
}

// cfrc += the forces tendon t puts on the bodies of its path at tension `force` (along its
// length: positive pushes its ends apart): each straight piece between path points on
// different bodies, u the unit vector from p0 to p1, takes -force u at p0 and +force u at p1,
// divided by its branch's pulley divisor (the pieces of qfrc = J' force).  The path's sites
// are the model's site wraps in order; a pulley point starts a branch
static void addTendonWrench(const mjModel* m, const mjData* d, mjtNum* cfrc, int t,
                            mjtNum force) {
  int w = m->tendon_adr[t], adr = d->ten_wrapadr[t], end = adr + d->ten_wrapnum[t];
  int body0 = -1;
  mjtNum divisor = 1, zero[3] = {0, 0, 0};
  for (int k = adr; k < end; k++) {
    int obj = d->wrap_obj[k], body;
    if (obj == -2) {
      while (m->wrap_type[w] != mjWRAP_PULLEY) w++;
      divisor = m->wrap_prm[w++];
      body0 = -1;
      continue;
    }
    if (obj >= 0) {
      body = m->geom_bodyid[obj];
    } else {
      while (m->wrap_type[w] != mjWRAP_SITE) w++;
      body = m->site_bodyid[m->wrap_objid[w++]];
    }
    const mjtNum *p1 = d->wrap_xpos + 3 * k, *p0 = p1 - 3;
    if (body0 >= 0 && body != body0) {
      mjtNum u[3];
      mju_sub3(u, p1, p0);
      mju_normalize3(u);
      mju_scl3(u, u, force / divisor);
      addWrench(m, d, cfrc, body0, u, zero, p0, -1);
      addWrench(m, d, cfrc, body, u, zero, p1, 1);
    }
    body0 = body;
  }
}

// the torque on body 1 of a weld (its opposite on body 2) from the forces f of its three
// rotational rows (constraint.h): their Jacobian is scl/2 A (Jr1 - Jr2) with A w = vec(q2^-1
// [0, w] q1), so the torque is scl/2 A' f (MuJoCo 3.13 on; before, f itself)
void mj_weldTorque(const mjtNum q1[4], const mjtNum q2[4], mjtNum scl, const mjtNum f[3],
                   mjtNum torque[3]) {
  mjtNum q2inv[4];
  mju_negQuat(q2inv, q2);
  scl *= 0.5;
  for (int c = 0; c < 3; c++) {
    mjtNum w[4] = {0, 0, 0, 0}, t[4];
    w[1 + c] = 1;
    mju_mulQuat(t, w, q1);
    mju_mulQuat(w, q2inv, t);
    torque[c] = scl * mju_dot3(w + 1, f);
  }
}

// the wrenches of row i on spatial tendons (addTendonWrench): friction puts efc_force on its
// tendon, a limit efc_force on the lower side and -efc_force on the upper (J = -ten_J;
// tendonLimitRows puts the lower row first when both are active), a coupling efc_force on its
// first tendon and -poly'(x2) efc_force on its second; fixed tendons move no body
static void tendonRowWrench(const mjModel* m, const mjData* d, mjtNum* cfrc, int i) {
  int type = d->efc_type[i], id = d->efc_id[i], t[2] = {-1, -1};
  mjtNum f = d->efc_force[i], tension[2] = {f, 0};
  if (type == mjCNSTR_FRICTION_TENDON) {
    t[0] = id;
  } else if (type == mjCNSTR_LIMIT_TENDON) {
    int lower = d->ten_length[id] - m->tendon_range[2 * id] < m->tendon_margin[id];
    int second = i > 0 && d->efc_type[i - 1] == type && d->efc_id[i - 1] == id;
    t[0] = id;
    if (!lower || second) tension[0] = -f;
  } else if (type == mjCNSTR_EQUALITY && m->eq_type[id] == mjEQ_TENDON) {
    t[0] = m->eq_obj1id[id];
    t[1] = m->eq_obj2id[id];
    if (t[1] >= 0) {
      mjtNum slope, x2 = d->ten_length[t[1]] - m->tendon_length0[t[1]];
      eqPoly(m->eq_data + 11 * id, 1, x2, &slope);
      tension[1] = -slope * f;
    }
  }
  for (int k = 0; k < 2; k++)
    if (t[k] >= 0 && tension[k] && m->wrap_type[m->tendon_adr[t[k]]] != mjWRAP_JOINT)
      addTendonWrench(m, d, cfrc, t[k], tension[k]);
}

// cfrc_ext += the constraint forces as body wrenches about each root's subtree com: contacts
// (frame' times mj_contactForce on body 2 at the contact point, its opposite on body 1),
// connect and weld (efc_force on body 1 at its anchor, the opposite on body 2 at its anchor;
// a weld's torque from its rotational rows by mj_weldTorque), and since MuJoCo 3.13 the tension
// of tendon limits, friction and couplings on the bodies along spatial tendons; a contact on
// none of the bodies of `frc` skipped (constraint.h)
void mj_addConstraintWrench(const mjModel* m, const mjData* d, mjtNum* cfrc_ext,
                            const unsigned char* frc) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    if (con->efc_address < 0) continue;
    if (frc && !frc[m->geom_bodyid[con->geom1]] && !frc[m->geom_bodyid[con->geom2]]) continue;
    mjtNum local[6], force[3], torque[3];
    mj_contactForce(m, d, i, local);
    mju_mulMatTVec3(force, con->frame, local);
    mju_mulMatTVec3(torque, con->frame, local + 3);
    addWrench(m, d, cfrc_ext, m->geom_bodyid[con->geom2], force, torque, con->pos, 1);
    addWrench(m, d, cfrc_ext, m->geom_bodyid[con->geom1], force, torque, con->pos, -1);
  }
  for (int i = 0; i < d->nefc && d->efc_type[i] == mjCNSTR_EQUALITY; i++) {
    int id = d->efc_id[i], type = m->eq_type[id];
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) continue;
    mjtNum p1[3], p2[3], q1[4], q2[4], torque[3] = {0, 0, 0};
    const mjtNum* f = d->efc_force + i;
    int b[2];
    mj_eqBodies(m, id, b);
    mj_eqFrames(m, d, id, p1, p2, q1, q2);
    if (type == mjEQ_WELD) mj_weldTorque(q1, q2, m->eq_data[11 * id + 10], f + 3, torque);
    addWrench(m, d, cfrc_ext, b[0], f, torque, p1, 1);
    addWrench(m, d, cfrc_ext, b[1], f, torque, p2, -1);
    i += type == mjEQ_WELD ? 5 : 2;
  }
  for (int i = 0; i < d->nefc && m->ntendon; i++) tendonRowWrench(m, d, cfrc_ext, i);
}
