// t/unit/engine/constraint.c: the constraint rows (lib/engine/constraint.c) against independent
// computations: the impedance function in closed form and by finite differences, a limit row
// by hand, every Jacobian against finite differences of the row positions, the contact cone
// rows against each other and against mj_jac, dense against sparse storage, the disable flags,
// and the njmax bound.  Agreement with MuJoCo itself is t/oracle/constraint (make check).
#include "engine/constraint.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mj.h"
#include "engine/smooth.h"

// connect, weld (with torquescale and relpose), joint and tendon couplings, joint limits of
// each type, tendon limits and friction loss, none saturated in its impedance
static const char* MODEL =
    "<mujoco><compiler angle='radian'/><worldbody>"
    "<body name='a' pos='0 0 1'><joint name='h' axis='0 1 0' range='-0.5 0.3' "
    "frictionloss='0.2'/><geom type='capsule' size='0.05' fromto='0 0 0 0.4 0 0'/>"
    "<site name='sa' pos='0.2 0.05 0'/>"
    "<body name='b' pos='0.4 0 0' quat='0.9 0.1 0.3 0.2'><joint name='s' type='slide' "
    "axis='1 0 0' range='-0.2 0.1' margin='0.01'/>"
    "<geom type='capsule' size='0.05' fromto='0 0 0 0.4 0 0'/>"
    "<body name='c' pos='0.4 0 0'><joint name='ball' type='ball' range='0 0.3'/>"
    "<geom type='box' size='0.1 0.05 0.03' pos='0.1 0 0'/></body></body></body>"
    "<body name='f' pos='1 0 1'><freejoint/><geom type='box' size='0.1 0.1 0.1'/>"
    "<site name='sf' pos='0.1 0 0.05'/></body>"
    "<body name='g' pos='1 1 1'><freejoint/><geom type='box' size='0.1 0.2 0.1'/></body>"
    "</worldbody><tendon><fixed name='t1' limited='true' range='-0.1 0.05' frictionloss='0.1'>"
    "<joint joint='h' coef='1'/><joint joint='s' coef='-0.5'/></fixed>"
    "<spatial name='t2' limited='true' range='0.1 0.5'><site site='sa'/><site site='sf'/>"
    "</spatial></tendon><equality><connect body1='b' body2='f' anchor='0.4 0 0'/>"
    "<weld body1='g' body2='f' relpose='0.1 0.2 0.3 0.9 0.1 0.2 0.1' torquescale='2.5' "
    "anchor='0.1 0.05 0'/><weld body1='c' torquescale='0.5'/>"
    "<joint joint1='h' joint2='s' polycoef='0.1 0.5 0.2 0.3 0.4'/>"
    "<tendon tendon1='t1' tendon2='t2' polycoef='0.1 0.5 0.2 0.3 0.4'/></equality></mujoco>";

// a state of MODEL where every limit of it is violated
static const mjtNum QPOS[20] = {0.45, 0.35, 0.8, 0.3, 0.5, 0.1, 1.1, 0.1, 1.05, 0.9,
                                0.1,  0.2,  0.3, 1,   1,   1.2, 0.8, 0.2, 0.1,  0.1};
static const mjtNum QVEL[17] = {0.1, -0.2, 0.3,  0.1, -0.4, 0.2,  0.5, -0.1, 0.3,
                                0.2, 0.1,  -0.3, 0.2, 0.4,  -0.2, 0.1, 0.3};

// compile an MJCF string; fails the test on error
static mjModel* load(const char* xml) {
  char err[512] = "";
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert(m, "%s", err);
  return m;
}

// MODEL's data at QPOS, QVEL after the position and velocity stages
static mjData* atState(const mjModel* m) {
  mjData* d = mj_makeData(m);
  memcpy(d->qpos, QPOS, sizeof(QPOS));
  memcpy(d->qvel, QVEL, sizeof(QVEL));
  mj_fwdPosition(m, d);
  mj_fwdVelocity(m, d);
  return d;
}

// the dense nefc x nv Jacobian of d, also when stored sparse, into J
static void denseJ(const mjModel* m, const mjData* d, mjtNum* J) {
  int nv = m->nv;
  memset(J, 0, sizeof(mjtNum) * (size_t)d->nefc * nv);
  for (int i = 0; i < d->nefc; i++) {
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      int a = d->efc_J_rowadr[i] + k;
      J[i * nv + (mj_isSparse(m) ? d->efc_J_colind[a] : k)] = d->efc_J[a];
    }
  }
}

// ---- impedance ---------------------------------------------------------------------------------

Test(impedance, closed_form) {
  // power 2, midpoint 0.5, width 0.1: x = 0.03 / 0.1 = 0.3 below mid: y = x^2 / 0.5 = 0.18
  const mjtNum solimp[5] = {0.5, 0.9, 0.1, 0.5, 2};
  mjtNum imp, impP;
  mju_impedance(solimp, -0.03, &imp, &impP);
  cr_assert_float_eq(imp, 0.5 + 0.18 * 0.4, 1e-15);
  cr_assert_float_eq(impP, -(2 * 0.3 / 0.5) * 0.4 / 0.1, 1e-13);

  // above mid: x = 0.8, y = 1 - (1 - x)^2 / 0.5 = 0.92
  mju_impedance(solimp, 0.08, &imp, &impP);
  cr_assert_float_eq(imp, 0.5 + 0.92 * 0.4, 1e-15);

  // linear (power 1), saturated at and past width, at zero, and flat (d0 = dwidth, width 0)
  const mjtNum linear[5] = {0.2, 0.6, 2, 0.3, 1};
  mju_impedance(linear, 0.5, &imp, &impP);
  cr_assert_float_eq(imp, 0.3, 1e-15);
  cr_assert_float_eq(impP, 0.2, 1e-15);
  mju_impedance(linear, -2.5, &imp, &impP);
  cr_assert(imp == 0.6 && impP == 0);
  mju_impedance(linear, 0, &imp, &impP);
  cr_assert(imp == 0.2 && impP == 0);
  const mjtNum flat[5] = {0.3, 0.7, 0, 0.5, 2};
  mju_impedance(flat, 0.01, &imp, &impP);
  cr_assert(imp == 0.5 && impP == 0);
}

Test(impedance, derivative) {
  // d'(r) against central differences, both signs of r, either side of the midpoint
  const mjtNum solimp[5] = {0.1, 0.95, 0.4, 0.35, 3.5};
  const mjtNum rs[] = {-0.3, -0.1, 0.05, 0.2, 0.39};
  for (int i = 0; i < 5; i++) {
    mjtNum imp, impP, a, b, p, h = 1e-6;
    mju_impedance(solimp, rs[i] + h, &a, &p);
    mju_impedance(solimp, rs[i] - h, &b, &p);
    mju_impedance(solimp, rs[i], &imp, &impP);
    cr_assert(fabs(impP - (a - b) / (2 * h)) < 1e-7, "r = %g: %g vs %g", rs[i], impP,
              (a - b) / (2 * h));
  }
}

// ---- rows by hand ------------------------------------------------------------------------------

Test(rows, slide_limit_by_hand) {
  // a 2 kg slider past its upper limit 0.1 by 0.05, moving at 0.3: one row
  mjModel* m = load(
      "<mujoco><worldbody><body><joint type='slide' range='-0.2 0.1' "
      "margin='0.01'/><geom type='sphere' size='0.1' mass='2'/></body>"
      "</worldbody></mujoco>");
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.15;
  d->qvel[0] = 0.3;
  mj_fwdPosition(m, d);
  mj_fwdVelocity(m, d);
  cr_assert_eq(d->nefc, 1);
  cr_assert_eq(d->efc_type[0], mjCNSTR_LIMIT_JOINT);
  cr_assert_eq(d->efc_J[0], -1);
  cr_assert_float_eq(d->efc_pos[0], -0.05, 1e-15);
  cr_assert_float_eq(d->efc_margin[0], 0.01, 1e-15);

  // default solimp (0.9 0.95 0.001 0.5 2) saturates at dwidth; default solref (0.02 1)
  mjtNum dmax = 0.95, diag = 1 / 2.0, K = 1 / (dmax * dmax * 0.02 * 0.02), B = 2 / (dmax * 0.02);
  cr_assert_float_eq(d->efc_diagApprox[0], diag, 1e-12);
  cr_assert_float_eq(d->efc_R[0], (1 - dmax) / dmax * diag, 1e-12);
  cr_assert_float_eq(d->efc_D[0], 1 / d->efc_R[0], 1e-9);
  cr_assert_float_eq(d->efc_KBIP[0], K, 1e-9);
  cr_assert_float_eq(d->efc_KBIP[1], B, 1e-10);
  cr_assert_float_eq(d->efc_vel[0], -0.3, 1e-15);
  cr_assert_float_eq(d->efc_aref[0], -B * -0.3 - K * dmax * (-0.05 - 0.01), 1e-9);

  // refsafe: a time constant of 1 ms becomes 2 timesteps, unless disabled
  mj_deleteData(d);
  mj_deleteModel(m);
  m = load(
      "<mujoco><option timestep='0.004'/><worldbody><body><joint type='slide' "
      "range='-0.2 0.1' solreflimit='0.001 0.5'/><geom type='sphere' size='0.1'/>"
      "</body></worldbody></mujoco>");
  d = mj_makeData(m);
  d->qpos[0] = 0.15;
  mj_fwdPosition(m, d);
  cr_assert_float_eq(d->efc_KBIP[1], 2 / (dmax * 0.008), 1e-10);
  m->opt.disableflags |= mjDSBL_REFSAFE;
  mj_fwdPosition(m, d);
  cr_assert_float_eq(d->efc_KBIP[0], 1 / (dmax * dmax * 1e-6 * 0.25), 1e-3);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- Jacobians ---------------------------------------------------------------------------------

Test(rows, jacobians_are_position_derivatives) {
  // (pos(q + h v) - pos(q - h v)) / 2h = J v = efc_vel for every non-friction row, with the
  // same rows active on both sides
  mjModel* m = load(MODEL);
  mjData* d = atState(m);
  mjData* e = mj_makeData(m);
  int nefc = d->nefc, nrow = 0;
  cr_assert_eq(nefc, 24, "nefc %d", nefc);
  mjtNum h = 1e-6, pos[2][64];
  for (int s = 0; s < 2; s++) {
    memcpy(e->qpos, QPOS, sizeof(QPOS));
    mj_integratePos(m, e->qpos, QVEL, s ? -h : h);
    mj_fwdPosition(m, e);
    cr_assert_eq(e->nefc, nefc);
    memcpy(pos[s], e->efc_pos, sizeof(mjtNum) * (size_t)nefc);
  }
  for (int i = 0; i < nefc; i++) {
    if (d->efc_type[i] == mjCNSTR_FRICTION_DOF || d->efc_type[i] == mjCNSTR_FRICTION_TENDON) {
      continue;
    }
    mjtNum fd = (pos[0][i] - pos[1][i]) / (2 * h);
    cr_assert(fabs(fd - d->efc_vel[i]) < 1e-7 * (1 + fabs(fd)), "row %d (type %d id %d): %g %g", i,
              d->efc_type[i], d->efc_id[i], fd, d->efc_vel[i]);
    nrow++;
  }
  cr_assert_eq(nrow, 22);
  mj_deleteData(e);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(rows, dense_and_sparse_agree) {
  // the same rows either way; J x and J' y agree, and y'(J x) = (J' y)'x
  mjModel* m = load(MODEL);
  mjData* d = atState(m);
  mjModel* ms = mj_copyModel(m);
  ms->opt.jacobian = mjJAC_SPARSE;
  mjData* ds = atState(ms);
  int nefc = d->nefc, nv = m->nv;
  cr_assert_eq(ds->nefc, nefc);
  cr_assert_lt(ds->nJ, d->nJ);
  mjtNum J[64 * 17], Js[64 * 17], x[17], y[64], Jx[64], Jsx[64], Jty[17], Jsty[17];
  denseJ(m, d, J);
  denseJ(ms, ds, Js);
  for (int i = 0; i < nefc * nv; i++) cr_assert_eq(J[i], Js[i], "entry %d", i);
  for (int j = 0; j < nv; j++) x[j] = sin(j + 1.0);
  for (int i = 0; i < nefc; i++) y[i] = cos(3.0 * i);
  mj_mulJacVec(m, d, Jx, x);
  mj_mulJacVec(ms, ds, Jsx, x);
  mj_mulJacTVec(m, d, Jty, y);
  mj_mulJacTVec(ms, ds, Jsty, y);
  mjtNum a = 0, b = 0;
  for (int i = 0; i < nefc; i++) {
    cr_assert_float_eq(Jx[i], Jsx[i], 1e-14);
    a += y[i] * Jx[i];
  }
  for (int j = 0; j < nv; j++) {
    cr_assert_float_eq(Jty[j], Jsty[j], 1e-13);
    b += Jty[j] * x[j];
  }
  cr_assert_float_eq(a, b, 1e-12);
  mj_deleteData(ds);
  mj_deleteModel(ms);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// ---- contacts ----------------------------------------------------------------------------------

// MODEL's data with one contact injected between bodies g and f (geoms 4 and 3) at a point
// with a tilted frame, condim 6, the rows of the given cone
static mjData* withContact(mjModel* m, int cone) {
  m->opt.cone = cone;
  m->opt.impratio = 2.5;
  mjData* d = atState(m);
  mjContact* c = d->contact;
  memset(c, 0, sizeof(*c));
  const mjtNum frame[9] = {0, 0.6, 0.8, 1, 0, 0, 0, 0.8, -0.6};
  const mjtNum friction[5] = {0.5, 0.9, 0.03, 0.004, 0.002};
  memcpy(c->frame, frame, sizeof(frame));
  memcpy(c->friction, friction, sizeof(friction));
  c->pos[0] = 1.1, c->pos[1] = 0.6, c->pos[2] = 1.1;
  c->dist = -0.01;
  c->includemargin = 0.002;
  c->solref[0] = 0.02, c->solref[1] = 1;
  c->solimp[0] = 0.9, c->solimp[1] = 0.95, c->solimp[2] = 0.001, c->solimp[3] = 0.5;
  c->solimp[4] = 2;
  c->dim = 6, c->geom1 = 4, c->geom2 = 3;
  d->ncon = 1;
  mj_makeConstraint(m, d);
  mj_referenceConstraint(m, d);
  return d;
}

Test(contacts, elliptic_rows) {
  // normal, tangents, spin and rolls: the frame's rows times Jp(f) - Jp(g), Jr(f) - Jr(g)
  mjModel* m = load(MODEL);
  mjData* d = withContact(m, mjCONE_ELLIPTIC);
  int nv = m->nv, adr = d->contact[0].efc_address;
  cr_assert_eq(adr, 24);
  cr_assert_eq(d->nefc, 30);
  mjtNum jp1[3 * 17], jr1[3 * 17], jp2[3 * 17], jr2[3 * 17];
  mj_jac(m, d, jp1, jr1, d->contact[0].pos, m->geom_bodyid[4]);
  mj_jac(m, d, jp2, jr2, d->contact[0].pos, m->geom_bodyid[3]);
  for (int k = 0; k < 6; k++) {
    const mjtNum* axis = d->contact[0].frame + 3 * (k % 3);
    for (int j = 0; j < nv; j++) {
      const mjtNum* a = k < 3 ? jp2 : jr2;
      const mjtNum* b = k < 3 ? jp1 : jr1;
      mjtNum v = 0;
      for (int r = 0; r < 3; r++) v += axis[r] * (a[r * nv + j] - b[r * nv + j]);
      cr_assert_float_eq(d->efc_J[(adr + k) * nv + j], v, 1e-14, "row %d col %d", k, j);
    }
  }

  // positions and margins on the normal only; R: normal (1-d)/d tran, friction k R1 mu0^2 /
  // mu_k^2 with R1 = R0 / impratio; K = 0 on friction rows; mu = mu0 / sqrt(impratio)
  mjtNum tran = m->body_invweight0[2 * 5] + m->body_invweight0[2 * 4], dmax = 0.95;
  const mjtNum* mu = d->contact[0].friction;
  cr_assert_float_eq(d->efc_R[adr], (1 - dmax) / dmax * tran, 1e-14);
  for (int k = 1; k < 6; k++) {
    cr_assert_float_eq(d->efc_R[adr + k],
                       d->efc_R[adr] / 2.5 * mu[0] * mu[0] / (mu[k - 1] * mu[k - 1]),
                       1e-12 * d->efc_R[adr + k]);
    cr_assert(d->efc_pos[adr + k] == 0 && d->efc_margin[adr + k] == 0);
    cr_assert(d->efc_KBIP[4 * (adr + k)] == 0);
  }
  cr_assert_float_eq(d->efc_pos[adr], -0.01, 1e-15);
  cr_assert_float_eq(d->contact[0].mu, 0.5 / sqrt(2.5), 1e-15);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(contacts, pyramid_from_elliptic) {
  // pyramid rows 2(k-1), 2(k-1)+1 = normal +- mu_k basis_k of the elliptic rows; every row
  // R = 2 mu0^2 (1 + mu0^2) tran / impratio (1-d)/d
  mjModel* m = load(MODEL);
  mjData* e = withContact(m, mjCONE_ELLIPTIC);
  mjData* p = withContact(m, mjCONE_PYRAMIDAL);
  int nv = m->nv, adr = p->contact[0].efc_address;
  cr_assert_eq(p->nefc, 34);
  const mjtNum* basis = e->efc_J + adr * nv;
  const mjtNum* mu = p->contact[0].friction;
  mjtNum tran = m->body_invweight0[2 * 5] + m->body_invweight0[2 * 4], dmax = 0.95;
  for (int k = 1; k < 6; k++) {
    for (int j = 0; j < nv; j++) {
      mjtNum n = basis[j], t = mu[k - 1] * basis[k * nv + j];
      cr_assert_float_eq(p->efc_J[(adr + 2 * k - 2) * nv + j], n + t, 1e-15);
      cr_assert_float_eq(p->efc_J[(adr + 2 * k - 1) * nv + j], n - t, 1e-15);
    }
  }
  for (int k = 0; k < 10; k++) {
    cr_assert_eq(p->efc_type[adr + k], mjCNSTR_CONTACT_PYRAMIDAL);
    cr_assert_float_eq(p->efc_R[adr + k], 2 * 0.25 * 1.25 * tran / 2.5 * (1 - dmax) / dmax, 1e-15);
    cr_assert_float_eq(p->efc_pos[adr + k], -0.01, 1e-15);
    cr_assert_float_eq(p->efc_margin[adr + k], 0.002, 1e-15);
  }
  mj_deleteData(p);
  mj_deleteData(e);
  mj_deleteModel(m);
}

// ---- flags and bounds --------------------------------------------------------------------------

Test(rows, disable_flags) {
  // MODEL's rows by kind: 3 + 6 + 6 + 1 + 1 equality, 2 friction, 5 limits, and nothing at
  // all with the constraint flag
  mjModel* m = load(MODEL);
  const int flags[4] = {mjDSBL_EQUALITY, mjDSBL_FRICTIONLOSS, mjDSBL_LIMIT, mjDSBL_CONSTRAINT};
  const int left[4] = {24 - 17, 24 - 2, 17 + 2, 0};
  for (int f = 0; f < 4; f++) {
    m->opt.disableflags = flags[f];
    mjData* d = atState(m);
    cr_assert_eq(d->nefc, left[f], "flag %d: nefc %d", flags[f], d->nefc);
    for (int i = 0; i < d->nefc; i++) {
      int t = d->efc_type[i];
      cr_assert(f != 0 || t != mjCNSTR_EQUALITY);
      cr_assert(f != 1 || (t != mjCNSTR_FRICTION_DOF && t != mjCNSTR_FRICTION_TENDON));
      cr_assert(f != 2 || (t != mjCNSTR_LIMIT_JOINT && t != mjCNSTR_LIMIT_TENDON));
    }
    mj_deleteData(d);
  }
  mj_deleteModel(m);
}

Test(rows, njmax_drops_whole_constraints) {
  // room for 10 rows: connect (3) and weld (6) fit, the next weld (6) does not, the joint
  // coupling (1) does; the rest are dropped and the warning counted once with the rows wanted
  mjModel* m = load(MODEL);
  m->njmax = 10;
  mjData* d = atState(m);
  cr_assert_eq(d->nefc, 10);
  cr_assert_eq(d->warning[mjWARN_CNSTRFULL].number, 1);
  cr_assert_eq(d->warning[mjWARN_CNSTRFULL].lastinfo, 24);
  const int id[10] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 3};
  for (int i = 0; i < 10; i++) cr_assert_eq(d->efc_id[i], id[i], "row %d", i);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a box 0.03 above an adhesive plane (adhesion 3, gap 0.05) with adhesion 2 of its own, and
// one 0.0005 into it with priority (its 2 alone); MuJoCo 3.14.0's numbers at rest
static const char* ADHESIVE =
    "<mujoco><worldbody><geom type='plane' size='2 2 .1' adhesion='3' gap='0.05'/>"
    "<body pos='0 0 .13'><freejoint/>"
    "<geom type='box' size='.1 .1 .1' mass='1' adhesion='2'/></body>"
    "<body pos='1 0 .0995'><freejoint/>"
    "<geom type='box' size='.1 .1 .1' mass='1' adhesion='2' priority='1'/></body>"
    "</worldbody></mujoco>";

Test(contacts, adhesion) {
  mjModel* m = load(ADHESIVE);
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  cr_assert_eq(d->ncon, 8);
  cr_assert_eq(d->nefc, 20);
  for (int i = 0; i < 8; i++) {
    const mjContact* con = d->contact + i;
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    if (i < 4) {
      // in the gap: summed adhesion, the normal row alone, pulling; the net force -delta
      cr_assert(con->adhesion == 5 && con->dim == 1 && con->efc_address == i);
      cr_assert_float_eq(d->efc_aref[i], -78.68421052631578, 1e-12);
      cr_assert_float_eq(f[0], -5, 1e-12);
    } else {
      // penetrating, the priority geom's adhesion: each pyramid edge's aref gains R delta / 4
      int adr = con->efc_address;
      cr_assert(con->adhesion == 2 && con->dim == 3 && adr == 4 + 4 * (i - 4));
      for (int r = 0; r < 4; r++) {
        const mjtNum* kbip = d->efc_KBIP + 4 * (adr + r);
        mjtNum plain = -kbip[1] * d->efc_vel[adr + r] -
                       kbip[0] * kbip[2] * (d->efc_pos[adr + r] - d->efc_margin[adr + r]);
        cr_assert_float_eq(d->efc_aref[adr + r] - plain, d->efc_R[adr + r] * 2 / 4, 1e-14);
        cr_assert_float_eq(d->efc_aref[adr + r], 1.4433255970652104, 1e-12);
      }
      cr_assert_float_eq(f[0], 2.7177022986186348, 1e-10);
    }
  }

  // qfrc_adhesion = sum of -delta n'(J2 - J1) at the contact points, in qfrc_passive
  cr_assert_float_eq(d->qfrc_adhesion[2], -20, 1e-12);
  cr_assert_float_eq(d->qfrc_adhesion[8], -8, 1e-12);
  for (int j = 0; j < m->nv; j++) {
    mjtNum jp[3 * 12], v = 0;
    for (int i = 0; i < 8; i++) {
      const mjContact* con = d->contact + i;
      mj_jac(m, d, jp, NULL, con->pos, m->geom_bodyid[con->geom2]);
      for (int r = 0; r < 3; r++) v -= con->adhesion * con->frame[r] * jp[r * m->nv + j];
    }
    cr_assert_float_eq(d->qfrc_adhesion[j], v, 1e-12, "dof %d", j);
    cr_assert_float_eq(d->qfrc_passive[j], v, 1e-12, "dof %d", j);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}
