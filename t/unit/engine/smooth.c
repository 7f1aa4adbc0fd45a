// t/unit/engine/smooth.c: position stage (lib/engine/smooth.c, lib/engine/tendon.c) and mj_setConst
// (lib/engine/setconst.c) on a model built by hand.  Oracle numbers come from MuJoCo 3.5.1 (npm
// `mujoco`) on this XML, whose compiled arrays equal the ones built below:
//   <mujoco><worldbody>
//   <body pos="0.1 0.2 0.3" quat="0.8 0.6 0 0">
//    <joint type="hinge" axis="0 1 0" pos="0.1 0 0" armature="0.1"/>
//    <inertial pos="0.1 0 0" mass="2" diaginertia="0.1 0.2 0.3"/>
//    <body pos="0.3 0 0">
//     <joint type="slide" axis="1 0 0"/><joint type="hinge" axis="0 0 1"/>
//     <inertial pos="0.1 0.1 0" quat="0.6 0 0.8 0" mass="1" diaginertia="0.05 0.04 0.03"/>
//     <body pos="0 0.3 0"><joint type="ball" pos="0 0.1 0"/>
//      <inertial pos="0 0.1 0.1" mass="0.5" diaginertia="0.01 0.02 0.03"/></body>
//    </body>
//   </body>
//   <body pos="1 0 0"><freejoint/>
//    <inertial pos="0 0 0" mass="3" diaginertia="0.3 0.2 0.1"/></body>
//   </worldbody></mujoco>
// with qpos = 0.3 0.2 -0.5 0.9 0.1 -0.2 0.3 1 2 3 0.8 0.2 0.3 -0.1 for the stage outputs.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "engine/smooth.h"
#include "util/util.h"

static const mjtNum QPOS[14] = {0.3, 0.2, -0.5, 0.9, 0.1, -0.2, 0.3, 1, 2, 3, 0.8, 0.2, 0.3, -0.1};

// |a - b| <= tol * max(1, |b|) for n numbers
static void near(const mjtNum* a, const mjtNum* b, int n, mjtNum tol) {
  for (int i = 0; i < n; i++)
    cr_assert(fabs(a[i] - b[i]) <= tol * fmax(1, fabs(b[i])), "element %d: %.17g vs %.17g", i,
              a[i], b[i]);
}

// set n ints
static void seti(int* dst, int n, const int* src) { memcpy(dst, src, n * sizeof(int)); }

// set n numbers
static void setn(mjtNum* dst, int n, const mjtNum* src) { memcpy(dst, src, n * sizeof(mjtNum)); }

// the model of the header; with tendons: sites on bodies 2 and 3, a fixed tendon
// 2 q0 - q2, a spatial tendon between the sites, and actuators on joint 0 (gear 3) and on the
// spatial tendon (gear 2)
static mjModel* build(int tendons) {
  mjModel sz;
  memset(&sz, 0, sizeof(sz));
  sz.nq = 14, sz.nv = 12, sz.nbody = 5, sz.njnt = 5, sz.nM = 42, sz.nstack = 1000;
  if (tendons) sz.nsite = 2, sz.ntendon = 2, sz.nwrap = 4, sz.nu = 2, sz.nJmom = 2 * sz.nv;
  mjModel* m = mj_makeModel(&sz);
  cr_assert_not_null(m);

  // bodies
  seti(m->body_parentid, 5, (int[]){0, 0, 1, 2, 0});
  seti(m->body_rootid, 5, (int[]){0, 1, 1, 1, 4});
  seti(m->body_weldid, 5, (int[]){0, 1, 2, 3, 4});
  seti(m->body_mocapid, 5, (int[]){-1, -1, -1, -1, -1});
  seti(m->body_jntnum, 5, (int[]){0, 1, 2, 1, 1});
  seti(m->body_jntadr, 5, (int[]){-1, 0, 1, 3, 4});
  seti(m->body_dofnum, 5, (int[]){0, 1, 2, 3, 6});
  seti(m->body_dofadr, 5, (int[]){-1, 0, 1, 3, 6});
  m->body_simple[0] = m->body_simple[4] = 1;
  setn(m->body_pos, 15, (mjtNum[]){0, 0, 0, 0.1, 0.2, 0.3, 0.3, 0, 0, 0, 0.3, 0, 1, 0, 0});
  setn(m->body_quat, 20, (mjtNum[]){1, 0, 0, 0, 0.8, 0.6, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                    1, 0, 0, 0});
  setn(m->body_ipos, 15, (mjtNum[]){0, 0, 0, 0.1, 0, 0, 0.1, 0.1, 0, 0, 0.1, 0.1, 0, 0, 0});
  setn(m->body_iquat, 20, (mjtNum[]){1, 0, 0, 0, 1, 0, 0, 0, 0.6, 0, 0.8, 0, 1, 0, 0, 0,
                                     1, 0, 0, 0});
  setn(m->body_mass, 5, (mjtNum[]){0, 2, 1, 0.5, 3});
  setn(m->body_inertia, 15, (mjtNum[]){0, 0, 0, 0.1, 0.2, 0.3, 0.05, 0.04, 0.03,
                                       0.01, 0.02, 0.03, 0.3, 0.2, 0.1});

  // joints and dofs
  seti(m->jnt_type, 5, (int[]){mjJNT_HINGE, mjJNT_SLIDE, mjJNT_HINGE, mjJNT_BALL, mjJNT_FREE});
  seti(m->jnt_qposadr, 5, (int[]){0, 1, 2, 3, 7});
  seti(m->jnt_dofadr, 5, (int[]){0, 1, 2, 3, 6});
  seti(m->jnt_bodyid, 5, (int[]){1, 2, 2, 3, 4});
  setn(m->jnt_pos, 15, (mjtNum[]){0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0, 0, 0, 0});
  setn(m->jnt_axis, 15, (mjtNum[]){0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1});
  seti(m->dof_bodyid, 12, (int[]){1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4});
  seti(m->dof_jntid, 12, (int[]){0, 1, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4});
  seti(m->dof_parentid, 12, (int[]){-1, 0, 1, 2, 3, 4, -1, 6, 7, 8, 9, 10});
  seti(m->dof_Madr, 12, (int[]){0, 1, 3, 6, 10, 15, 21, 22, 24, 27, 31, 36});
  seti(m->dof_simplenum, 12, (int[]){0, 0, 0, 0, 0, 0, 6, 5, 4, 3, 2, 1});
  m->dof_armature[0] = 0.1;
  setn(m->qpos0, 14, (mjtNum[]){0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0});
  if (!tendons) return m;

  // sites, tendons, actuators
  seti(m->site_bodyid, 2, (int[]){2, 3});
  setn(m->site_pos, 6, (mjtNum[]){0.1, 0, 0.2, 0.1, 0.1, 0});
  setn(m->site_quat, 8, (mjtNum[]){1, 0, 0, 0, 1, 0, 0, 0});
  seti(m->tendon_adr, 2, (int[]){0, 2});
  seti(m->tendon_num, 2, (int[]){2, 2});
  seti(m->wrap_type, 4, (int[]){mjWRAP_JOINT, mjWRAP_JOINT, mjWRAP_SITE, mjWRAP_SITE});
  seti(m->wrap_objid, 4, (int[]){0, 2, 0, 1});
  setn(m->wrap_prm, 4, (mjtNum[]){2, -1, 0, 0});
  seti(m->actuator_trntype, 2, (int[]){mjTRN_JOINT, mjTRN_TENDON});
  seti(m->actuator_trnid, 4, (int[]){0, -1, 1, -1});
  m->actuator_gear[0] = 3;
  m->actuator_gear[6] = 2;
  return m;
}

// position stage at qpos
static void position(const mjModel* m, mjData* d, const mjtNum* qpos) {
  setn(d->qpos, m->nq, qpos);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_transmission(m, d);
  mj_crb(m, d);
  mj_factorM(m, d);
}

// body subtree masses (normally from mj_setConst)
static void subtreeMass(mjModel* m) {
  setn(m->body_subtreemass, 5, (mjtNum[]){6.5, 3.5, 1.5, 0.5, 3});
}

Test(smooth, oracle) {
  mjModel* m = build(0);
  subtreeMass(m);
  mjData* d = mj_makeData(m);
  position(m, d, QPOS);
  near(d->xpos, (mjtNum[]){0, 0, 0, 0.1044663510874394, 0.1716300601605114, 0.3082745657865175,
                           0.5821345956502424, 0.3134797593579544, 0.26690173685393,
                           0.7785000492259475, 0.44883401447870186, 0.4904234125945013,
                           1, 2, 3}, 15, 1e-14);
  // cdof of the hinge, the slide and the first ball dof
  near(d->cdof, (mjtNum[]){0, 0.28, 0.96, -0.05619421643909895, 0.2159164932814939,
                           -0.06297564387376907, 0, 0, 0, 0.955336489125606, 0.283699398394886,
                           -0.0827456578651751}, 12, 1e-14);
  near(d->cdof + 18, (mjtNum[]){0.980643817159378, -0.1212207414988927, 0.1537635707752103,
                                0.05993278788303344, 0.1893064687257919, -0.23298657277878115},
       6, 1e-14);
  mjtNum qm[42] = {
    0.7997240374266033, 1.5, 0.044736842105263096, 0.16284862049861493, -0.20904552486533087,
    -0.01934654044713085, 0.015000000000000013, -0.005578947368421048, 0.007864670102277047,
    0.003573816353630881, 0.024999999999999998, -8.673617379884035e-19, -0.012947368421052641,
    0.04448656510560311, 0.011557019811505417, 0.02999999999999997, 4.230308758857008e-18,
    -2.9721596965760818e-18, 0.026842105263157875, 1.6404666883870185e-18,
    -0.003772013904816326, 3, 3, 0, 3, 0, 0, 0.3, 0, 0, 0, 0.2, 0, 0, 0, 0, 0.1};
  near(d->qM, qm, 42, 1e-14);
  // qLD packed (27 entries, simple free-joint dofs keep only D), zero tail
  mjtNum qld[42] = {
    0.7923912300391801, 0.008723823606509305, 1.158980720733378, -0.06656626096301428,
    -1.407756555187545, 0.130051649122807, 0.2382544235753919, 0.5243113401518028,
    -0.3719298245614028, 0.015000000000000013, 0.4622807924602167, 1.7794626042241244,
    -0.5178947368421059, -3.469446951953613e-17, 0.024999999999999998, -0.12573379682721098,
    5.4682222946234e-17, 0.8947368421052634, -9.907198988586949e-17, 1.410102919619004e-16,
    0.02999999999999997, 3, 3, 3, 0.3, 0.2, 0.1};
  near(d->qLD, qld, 42, 1e-13);
  near(d->qLDiagInv, (mjtNum[]){1.2620028618319699, 0.8628271222382556, 7.689252744928331,
                                66.66666666666661, 40, 33.333333333333364, 1 / 3.0, 1 / 3.0,
                                1 / 3.0, 10 / 3.0, 5, 10}, 12, 1e-13);
  mj_deleteData(d);
  mj_deleteModel(m);
}

Test(smooth, setConst) {
  mjModel* m = build(0);
  mjData* d = mj_makeData(m);
  mj_setConst(m, d);
  near(m->body_subtreemass, (mjtNum[]){6.5, 3.5, 1.5, 0.5, 3}, 5, 1e-15);
  // body 1 turns about its com: no translational weight (MuJoCo 3.7 on: no fallback)
  near(m->body_invweight0, (mjtNum[]){0, 0, 0, 0.7407407407407408,
                                      0.3734792922982199, 4.702096022245965, 0.6539814764511891,
                                      48.346643487079184, 1 / 3.0, 6.111111111111112}, 10,
       1e-13);
  near(m->dof_invweight0, (mjtNum[]){2.2222222222222223, 1.1241647199434999, 11.884065844515675,
                                     53.04873950932515, 53.04873950932515, 53.04873950932515,
                                     1 / 3.0, 1 / 3.0, 1 / 3.0, 6.111111111111112,
                                     6.111111111111112, 6.111111111111112}, 12, 1e-13);
  near(m->dof_M0, (mjtNum[]){0.475, 1.5, 0.17843199999999998, 0.015, 0.025, 0.03, 3, 3, 3,
                             0.3, 0.2, 0.1}, 12, 1e-14);
  near(&m->stat.meaninertia, (mjtNum[]){0.9852859999999999}, 1, 1e-14);
  near(&m->stat.meanmass, (mjtNum[]){1.625}, 1, 1e-15);
  near(&m->stat.meansize, (mjtNum[]){0.1540594415042095}, 1, 1e-14);
  near(&m->stat.extent, (mjtNum[]){0.9}, 1, 1e-14);
  near(m->stat.center, (mjtNum[]){0.55, 0.156, 0.356}, 3, 1e-14);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// M = sum over bodies of Jp' m Jp + Jr' I Jr (+ armature), I the world inertia at the com
Test(smooth, inertiaFromJacobians) {
  mjModel* m = build(0);
  subtreeMass(m);
  mjData* d = mj_makeData(m);
  position(m, d, QPOS);
  int nv = m->nv;
  mjtNum full[144] = {0}, jp[36], jr[36];
  for (int b = 1; b < m->nbody; b++) {
    mj_jacBodyCom(m, d, jp, jr, b);
    // world inertia ximat diag ximat'
    mjtNum iw[9];
    const mjtNum* r = d->ximat + 9 * b;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        iw[3 * i + j] = 0;
        for (int k = 0; k < 3; k++)
          iw[3 * i + j] += r[3 * i + k] * m->body_inertia[3 * b + k] * r[3 * j + k];
      }
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        mjtNum s = 0;
        for (int k = 0; k < 3; k++) {
          s += m->body_mass[b] * jp[k * nv + i] * jp[k * nv + j];
          for (int l = 0; l < 3; l++) s += jr[k * nv + i] * iw[3 * k + l] * jr[l * nv + j];
        }
        full[i * nv + j] += s;
      }
  }
  full[0] += m->dof_armature[0];
  // compare with M e_j column by column
  for (int j = 0; j < nv; j++) {
    mjtNum e[12] = {0}, col[12];
    e[j] = 1;
    mj_mulM(m, d, col, e);
    for (int i = 0; i < nv; i++) cr_assert(fabs(col[i] - full[i * nv + j]) < 1e-13);
  }
  // solveM inverts mulM
  mjtNum x[12] = {0.3, -1, 2, 0.5, 0.1, -0.7, 1, 2, -3, 0.2, 0.4, -0.6}, y[12], z[12];
  mj_mulM(m, d, y, x);
  mj_solveM(m, d, z, y, 1);
  near(z, x, nv, 1e-12);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// qpos moved by eps along dof v: hinge/slide add, ball/free rotate in the local frame
static void perturb(const mjModel* m, mjtNum* qpos, int v, mjtNum eps) {
  int j = m->dof_jntid[v], adr = m->jnt_qposadr[j], k = v - m->jnt_dofadr[j];
  int type = m->jnt_type[j];
  if (type == mjJNT_HINGE || type == mjJNT_SLIDE || (type == mjJNT_FREE && k < 3)) {
    qpos[adr + k] += eps;
    return;
  }
  mjtNum vel[3] = {0, 0, 0};
  vel[type == mjJNT_FREE ? k - 3 : k] = 1;
  mju_quatIntegrate(qpos + adr + (type == mjJNT_FREE ? 3 : 0), vel, eps);
}

// tendon Jacobians (and so cdof) equal centered differences of the tendon lengths; actuators
// scale them by their gears; a fixed tendon is 2 q0 - q2
Test(smooth, tendons) {
  mjModel* m = build(1);
  subtreeMass(m);
  mjData* d = mj_makeData(m);
  position(m, d, QPOS);
  cr_assert(fabs(d->ten_length[0] - (2 * 0.3 + 0.5)) < 1e-15);
  mjtNum dist = mju_dist3(d->site_xpos, d->site_xpos + 3);
  cr_assert(fabs(d->ten_length[1] - dist) < 1e-15);
  mjtNum jt[24], len1 = d->ten_length[1];
  setn(jt, 24, d->ten_J);
  cr_assert(fabs(d->actuator_length[0] - 0.9) < 1e-15);
  cr_assert(fabs(d->actuator_length[1] - 2 * len1) < 1e-15);
  mjtNum moment[24];
  mj_momentRow(m, d, 0, moment);
  mj_momentRow(m, d, 1, moment + m->nv);
  for (int v = 0; v < m->nv; v++)
    cr_assert(fabs(moment[m->nv + v] - 2 * jt[m->nv + v]) < 1e-15);
  cr_assert_eq(moment[0], 3);
  for (int v = 0; v < m->nv; v++) {
    mjtNum qp[14], qm[14], eps = 1e-6;
    setn(qp, 14, QPOS);
    setn(qm, 14, QPOS);
    perturb(m, qp, v, eps);
    perturb(m, qm, v, -eps);
    position(m, d, qp);
    mjtNum lp[2] = {d->ten_length[0], d->ten_length[1]};
    position(m, d, qm);
    for (int t = 0; t < 2; t++) {
      mjtNum fd = (lp[t] - d->ten_length[t]) / (2 * eps);
      cr_assert(fabs(fd - jt[t * m->nv + v]) < 1e-8, "tendon %d dof %d: %g vs %g", t, v, fd,
                jt[t * m->nv + v]);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}
