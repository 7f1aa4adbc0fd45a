// setconst.c: the model constants that depend on qpos0 (mj_setConst, declared in mj.h).
//
// At qpos0 (mocap bodies at their body frames) the position stage is run once, and:
//   body_subtreemass   mass of each subtree
//   dof_M0             diagonal of M (joint armature and its actuators' included, tendon
//                      armature not; M has it in everything below)
//   dof_invweight0     diagonal of inv(M); ball and free joints average it over their
//                      rotational (and translational) dofs; dofs of bodies with
//                      body_simple == 2 (aligned sliders only) 1/mass, armature ignored
//   body_invweight0    A = J inv(M) J' with J the 6 x nv Jacobian of the body com: (trace of the
//                      translational block / 3, trace of the rotational block / 3; a half
//                      without motion stays 0, as since MuJoCo 3.7); static bodies 0; bodies with
//                      body_simple == 2 (aligned sliders only) (1/mass, 0)
//   tendon_length0, tendon_invweight0 = J inv(M) J'
//   tendon_lengthspring still -1 -1 (tendons that wrap geoms: the compiler leaves them here):
//                      the tendon length at qpos_spring, both ends
//   actuator_length0, actuator_acc0 = |inv(M) moment|
//   actuator_biasprm[2] of position actuators given a dampratio (see resolveDampRatio)
//   cam_ and light_ pos0 (from the body origin), poscom0 (from the subtree com of the target
//                      body when there is one, else of the own body), mat0 / dir0: their
//                      world poses, body-fixed
//   stat.meaninertia   trace(M)/nv (1 without dofs)
//   stat.meanmass      mean mass of the bodies other than the world
//   stat.meansize      mean body size; the size of a body is the largest of 1e-5, each
//                      bounded geom's distance from the body com plus its bounding radius
//                      (planes none), and the distance from the com to the anchor of each
//                      joint of the body or of its children
//   stat.center        center of the box bounding the body origins and coms (world excluded),
//                      joint anchors, geom bounding spheres (planes: 0.1 max(size x, size y),
//                      0.01 when 0, as since MuJoCo 3.10) and sites
//   stat.extent        the largest side of that box (at least 1e-5; unchanged when the box
//                      has no width in x, as MuJoCo tests only x), at least 2 * meansize
// These rules were measured against MuJoCo 3.14.0 (see t/unit/engine/smooth.c).  The compiler
// restores afterwards any statistic the file sets.
//
// mj_setLengthRanges, run by the compiler after the constants above, fills actuator_lengthrange
// as MuJoCo's compiler does (<compiler><lengthrange>): for each actuator the mode selects whose
// range is not given (useexisting), the range of its limited joint or tendon (uselimit), else
// the lengths reached by simulating the model from qpos0 with a force pushing the actuator
// shorter, then longer: gravity, contacts, springs, dampers, friction loss and actuation
// disabled (limits and equalities act), the lengthrange timestep, the velocity damped every
// step; each end is the extreme length over the last `interval` of `inttotal` seconds, and
// the lengths of that interval must lie within tolrange of the range.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/smooth.h"
#include "util/util.h"

// smallest body size counted in stat.meansize
#define MIN_BODY_SIZE 1e-5

// x' inv(M) x for one row x of size nv; tmp holds nv numbers
static mjtNum invWeight(const mjModel* m, mjData* d, const mjtNum* x, mjtNum* tmp) {
  mj_solveM(m, d, tmp, x, 1);
  return mju_dot(x, tmp, m->nv);
}

// 1/mass of body b, 0 when massless
static mjtNum invMass(const mjModel* m, int b) {
  return m->body_mass[b] > mjMINVAL ? 1 / m->body_mass[b] : 0;
}

// dof_invweight0 from the diagonal of inv(M), averaged per ball / free joint group
static void setDofInvWeight(mjModel* m, mjData* d, mjtNum* e, mjtNum* tmp) {
  int nv = m->nv;
  mju_zero(e, nv);
  for (int i = 0; i < nv; i++) {
    int b = m->dof_bodyid[i];
    if (m->body_simple[b] == 2) {
      m->dof_invweight0[i] = invMass(m, b);
      continue;
    }
    e[i] = 1;
    m->dof_invweight0[i] = invWeight(m, d, e, tmp);
    e[i] = 0;
  }
  for (int j = 0; j < m->njnt; j++) {
    int type = m->jnt_type[j], adr = m->jnt_dofadr[j];
    if (type != mjJNT_FREE && type != mjJNT_BALL) continue;
    // groups of 3: translation then rotation for free, rotation for ball
    for (int g = 0; g < (type == mjJNT_FREE ? 2 : 1); g++) {
      mjtNum* w = m->dof_invweight0 + adr + 3 * g;
      w[0] = w[1] = w[2] = (w[0] + w[1] + w[2]) / 3;
    }
  }
}

// body_invweight0 from the com Jacobians; jac holds 6 nv numbers, tmp nv
static void setBodyInvWeight(mjModel* m, mjData* d, mjtNum* jac, mjtNum* tmp) {
  int nv = m->nv;
  for (int b = 0; b < m->nbody; b++) {
    mjtNum* w = m->body_invweight0 + 2 * b;
    w[0] = w[1] = 0;

    // static bodies: no motion
    if (b == 0 || m->body_weldid[b] == 0) continue;

    // aligned sliders only: translation 1/mass, no rotation
    if (m->body_simple[b] == 2) {
      w[0] = invMass(m, b);
      continue;
    }

    // traces of the translational and rotational blocks of J inv(M) J'
    mj_jacBodyCom(m, d, jac, jac + 3 * nv, b);
    for (int r = 0; r < 6; r++) w[r / 3] += invWeight(m, d, jac + r * nv, tmp) / 3;
  }
}

// body masses: subtree sums, from the leaves
static void setSubtreeMass(mjModel* m) {
  for (int b = 0; b < m->nbody; b++) m->body_subtreemass[b] = m->body_mass[b];
  for (int b = m->nbody - 1; b > 0; b--)
    m->body_subtreemass[m->body_parentid[b]] += m->body_subtreemass[b];
}

// cameras and lights: world pose relative to the body origin and to the subtree com of the
// target body (or of the own body without a target)
static void setCamLight(mjModel* m, const mjData* d) {
  for (int c = 0; c < m->ncam; c++) {
    int b = m->cam_bodyid[c], t = m->cam_targetbodyid[c] >= 0 ? m->cam_targetbodyid[c] : b;
    mju_sub3(m->cam_pos0 + 3 * c, d->cam_xpos + 3 * c, d->xpos + 3 * b);
    mju_sub3(m->cam_poscom0 + 3 * c, d->cam_xpos + 3 * c, d->subtree_com + 3 * t);
    mju_copy(m->cam_mat0 + 9 * c, d->cam_xmat + 9 * c, 9);
  }
  for (int l = 0; l < m->nlight; l++) {
    int b = m->light_bodyid[l], t = m->light_targetbodyid[l] >= 0 ? m->light_targetbodyid[l] : b;
    mju_sub3(m->light_pos0 + 3 * l, d->light_xpos + 3 * l, d->xpos + 3 * b);
    mju_sub3(m->light_poscom0 + 3 * l, d->light_xpos + 3 * l, d->subtree_com + 3 * t);
    mju_copy3(m->light_dir0 + 3 * l, d->light_xdir + 3 * l);
  }
}

// size of each body (see the header comment), written into size[nbody]
static void bodySizes(const mjModel* m, const mjData* d, mjtNum* size) {
  for (int b = 0; b < m->nbody; b++) size[b] = MIN_BODY_SIZE;
  for (int g = 0; g < m->ngeom; g++) {
    int b = m->geom_bodyid[g];
    if (m->geom_rbound[g] <= 0) continue;  // planes: unbounded, no size (as MuJoCo)
    mjtNum s = mju_dist3(d->geom_xpos + 3 * g, d->xipos + 3 * b) + m->geom_rbound[g];
    size[b] = fmax(size[b], s);
  }
  for (int j = 0; j < m->njnt; j++) {
    int b = m->jnt_bodyid[j], p = m->body_parentid[b];
    const mjtNum* anchor = d->xanchor + 3 * j;
    size[b] = fmax(size[b], mju_dist3(anchor, d->xipos + 3 * b));
    size[p] = fmax(size[p], mju_dist3(anchor, d->xipos + 3 * p));
  }
}

// grow the box lo..hi to hold the ball of radius r at p
static void boxAdd(mjtNum lo[3], mjtNum hi[3], const mjtNum p[3], mjtNum r) {
  for (int k = 0; k < 3; k++) {
    lo[k] = fmin(lo[k], p[k] - r);
    hi[k] = fmax(hi[k], p[k] + r);
  }
}

// meaninertia, meanmass, meansize, center, extent; size holds nbody numbers
static void setStatistics(mjModel* m, const mjData* d, mjtNum* size) {
  mjStatistic* st = &m->stat;

  // mean diagonal inertia
  mjtNum tr = 0;
  for (int i = 0; i < m->nv; i++) tr += d->qM[m->dof_Madr[i]];
  st->meaninertia = m->nv ? tr / m->nv : 1;

  // mean mass and size of the bodies
  bodySizes(m, d, size);
  mjtNum msum = 0, ssum = 0;
  for (int b = 1; b < m->nbody; b++) {
    msum += m->body_mass[b];
    ssum += size[b];
  }
  if (m->nbody > 1) {
    st->meanmass = msum / (m->nbody - 1);
    st->meansize = ssum / (m->nbody - 1);
  }

  // bounding box of body frames, coms, joint anchors, geoms and sites
  mjtNum lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int b = 1; b < m->nbody; b++) {
    boxAdd(lo, hi, d->xpos + 3 * b, 0);
    boxAdd(lo, hi, d->xipos + 3 * b, 0);
  }
  for (int j = 0; j < m->njnt; j++) boxAdd(lo, hi, d->xanchor + 3 * j, 0);
  for (int g = 0; g < m->ngeom; g++) {
    mjtNum r = m->geom_rbound[g];
    if (m->geom_type[g] == mjGEOM_PLANE) {
      r = 0.1 * fmax(m->geom_size[3 * g], m->geom_size[3 * g + 1]);
      if (r <= 0) r = 0.01;
    }
    boxAdd(lo, hi, d->geom_xpos + 3 * g, r);
  }
  for (int s = 0; s < m->nsite; s++) boxAdd(lo, hi, d->site_xpos + 3 * s, 0);
  if (lo[0] > hi[0]) return;

  // center; extent the box's largest side (when it has width in x), at least 2 meansize
  mjtNum side = 1e-5;
  for (int k = 0; k < 3; k++) {
    st->center[k] = (lo[k] + hi[k]) / 2;
    side = fmax(side, hi[k] - lo[k]);
  }
  if (hi[0] > lo[0]) st->extent = side;
  st->extent = fmax(st->extent, 2 * st->meansize);
}

// a position-like actuator's damping ratio (gain kp = -biasprm[1], biasprm[2] > 0) becomes
// the damping biasprm[2] = -2 ratio sqrt(kp mass), mass the inertia reflected through the
// transmission, sum_i M0_i / moment_i^2 over the dofs with moment_i^2 > mjMINVAL (as MuJoCo
// 3.14: M0/gear^2 for one dof), moment the actuator's dense moment row
static void resolveDampRatio(mjModel* m, int a, const mjtNum* moment) {
  mjtNum *bias = m->actuator_biasprm + 10 * a, kp = m->actuator_gainprm[10 * a];
  if (kp != -bias[1] || bias[2] <= 0) return;
  mjtNum mass = 0;
  for (int i = 0; i < m->nv; i++)
    if (moment[i] * moment[i] > mjMINVAL) mass += m->dof_M0[i] / (moment[i] * moment[i]);
  bias[2] = -(bias[2] * 2 * sqrt(kp * mass));
}

// tendons whose spring length range is still -1 -1: their length at qpos_spring
static void setSpringLength(mjModel* m, mjData* d) {
  int t = 0;
  while (t < m->ntendon && (m->tendon_lengthspring[2 * t] != -1 ||
                            m->tendon_lengthspring[2 * t + 1] != -1))
    t++;
  if (t == m->ntendon) return;
  mju_copy(d->qpos, m->qpos_spring, m->nq);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  for (; t < m->ntendon; t++) {
    mjtNum* range = m->tendon_lengthspring + 2 * t;
    if (range[0] == -1 && range[1] == -1) range[0] = range[1] = d->ten_length[t];
  }
}

// every constant above, at qpos0
void mj_setConst(mjModel* m, mjData* d) {
  int nv = m->nv, n = nv > 1 ? nv : 1;

  // state at qpos0, mocap bodies at their model frames
  setSubtreeMass(m);
  mju_copy(d->qpos, m->qpos0, m->nq);
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id < 0) continue;
    mju_copy3(d->mocap_pos + 3 * id, m->body_pos + 3 * b);
    mju_copy4(d->mocap_quat + 4 * id, m->body_quat + 4 * b);
  }

  // position stage
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_transmission(m, d);
  mj_crb(m, d);
  for (int i = 0; i < nv; i++) m->dof_M0[i] = d->qM[m->dof_Madr[i]];
  mj_tendonArmature(m, d);
  mj_factorM(m, d);
  setCamLight(m, d);

  // scratch: 6 nv Jacobian rows, two nv vectors, nbody sizes (compile time: malloc is fine)
  size_t nscratch = 8 * (size_t)n + (size_t)m->nbody + 1;
  mjtNum* scratch = malloc(nscratch * sizeof(mjtNum));
  if (!scratch) return;
  mjtNum *jac = scratch, *e = scratch + 6 * n, *tmp = scratch + 7 * n, *size = scratch + 8 * n;

  // inertia and inverse weights of dofs and bodies
  setDofInvWeight(m, d, e, tmp);
  setBodyInvWeight(m, d, jac, tmp);

  // tendons and actuators
  for (int t = 0; t < m->ntendon; t++) {
    const mjtNum* jrow = d->ten_J + (size_t)t * nv;
    m->tendon_length0[t] = d->ten_length[t];
    m->tendon_invweight0[t] = invWeight(m, d, jrow, tmp);
  }
  for (int a = 0; a < m->nu; a++) {
    m->actuator_length0[a] = d->actuator_length[a];
    mj_momentRow(m, d, a, jac);
    mj_solveM(m, d, tmp, jac, 1);
    m->actuator_acc0[a] = mju_norm(tmp, nv);
    resolveDampRatio(m, a, jac);
  }

  setStatistics(m, d, size);
  free(scratch);
  setSpringLength(m, d);
}

// ---- actuator length ranges ------------------------------------------------------------------

// MuJoCo's defaults
void mj_defaultLROpt(mjLROpt* opt) {
  *opt = (mjLROpt){.mode = mjLRMODE_MUSCLE, .useexisting = 1, .uselimit = 0, .accel = 20,
                   .maxforce = 0, .timeconst = 1, .timestep = 0.01, .inttotal = 10,
                   .interval = 2, .tolrange = 0.05};
}

// whether mode selects actuator a: a muscle has muscle gain or bias, a user one user gain or
// bias
static int lrSelected(const mjModel* m, int a, int mode) {
  int g = m->actuator_gaintype[a], b = m->actuator_biastype[a];
  int muscle = g == mjGAIN_MUSCLE || b == mjBIAS_MUSCLE;
  int user = g == mjGAIN_USER || b == mjBIAS_USER;
  return mode == mjLRMODE_ALL || (mode == mjLRMODE_MUSCLE && muscle) ||
         (mode == mjLRMODE_MUSCLEUSER && (muscle || user));
}

// the range of the limited joint or tendon actuator a transmits to, or NULL.  As MuJoCo's
// (3.12 to 3.14, measured) the joint or tendon is trnid[a], not trnid[2 a]: right for the
// first actuator, for the others an entry of another actuator's pair (one out of range, which
// MuJoCo reads anyway, counts as unlimited here)
static const mjtNum* lrLimit(const mjModel* m, int a) {
  int t = m->actuator_trntype[a], id = m->actuator_trnid[a];
  if ((t == mjTRN_JOINT || t == mjTRN_JOINTINPARENT) && id >= 0 && id < m->njnt &&
      m->jnt_limited[id])
    return m->jnt_range + 2 * id;
  if (t == mjTRN_TENDON && id >= 0 && id < m->ntendon && m->tendon_limited[id])
    return m->tendon_range + 2 * id;
  return NULL;
}

// one step pushing actuator a shorter (side 0) or longer (side 1); its length at the start:
//   qvel *= exp(-h / max(0.01, timeconst)), then the position and velocity stages;
//   qfrc_applied = (2 side - 1) accel moment / |inv(M) moment|, its norm cut to maxforce (> 0);
//   the rest of the step
static mjtNum lrStep(const mjModel* m, mjData* d, int a, int side, const mjLROpt* opt) {
  int nv = m->nv;
  mju_scl(d->qvel, d->qvel, exp(-m->opt.timestep / fmax(0.01, opt->timeconst)), nv);
  mj_step1(m, d);
  size_t mark = mj_markStack(d);
  mjtNum* moment = mj_stackAlloc(d, nv);
  mj_momentRow(m, d, a, moment);
  mj_solveM(m, d, d->qfrc_applied, moment, 1);
  mjtNum nrm = mju_norm(d->qfrc_applied, nv);
  mju_scl(d->qfrc_applied, moment, (2 * side - 1) * opt->accel / fmax(mjMINVAL, nrm), nv);
  nrm = mju_norm(d->qfrc_applied, nv);
  if (opt->maxforce > 0 && nrm > opt->maxforce)
    mju_scl(d->qfrc_applied, d->qfrc_applied, opt->maxforce / fmax(mjMINVAL, nrm), nv);
  mj_step2(m, d);
  mj_freeStack(d, mark);
  return d->actuator_length[a];
}

// actuator a's range by simulation (m->opt already the computation's): the smallest length
// over the interval pushing shorter, the largest pushing longer.  1, or 0 with the reason in
// err: the simulation was reset (unstable), the range is empty, or the lengths of a side's
// interval spread wider than tolrange of the range
static int lrSimulate(mjModel* m, mjData* d, int a, const mjLROpt* opt, char* err, int errsz) {
  mjtNum lo[2] = {0, 0}, hi[2] = {0, 0};
  mjtNum* range = m->actuator_lengthrange + 2 * a;
  for (int side = 0; side < 2; side++) {
    mj_resetData(m, d);
    // simulate inttotal seconds; the extremes over the last interval
    int seen = 0;
    while (d->time < opt->inttotal) {
      mjtNum len = lrStep(m, d, a, side, opt);
      if (d->time == 0) {
        snprintf(err, errsz, "unstable lengthrange simulation");
        return 0;
      }
      if (d->time > opt->inttotal - opt->interval) {
        if (len < lo[side] || !seen) lo[side] = len;
        if (len > hi[side] || !seen) hi[side] = len;
        seen = 1;
      }
    }
    range[side] = side ? hi[side] : lo[side];
  }
  // a non-empty range, each side settled within tolrange of it
  mjtNum dif = range[1] - range[0];
  if (dif <= 0) {
    snprintf(err, errsz, "invalid lengthrange (%g, %g)", range[0], range[1]);
    return 0;
  }
  for (int side = 0; side < 2; side++) {
    if (hi[side] - lo[side] > opt->tolrange * dif) {
      snprintf(err, errsz,
               "lengthrange computation did not converge: eval (%g, %g), range (%g, %g)",
               lo[side], hi[side], range[0], range[1]);
      return 0;
    }
  }
  return 1;
}

// every selected actuator's range: kept when given (useexisting), a limited joint's or
// tendon's (uselimit), else simulated with the computation's options, the model's restored
int mj_setLengthRanges(mjModel* m, mjData* d, const mjLROpt* opt, char* err, int errsz) {
  mjOption save = m->opt;
  m->opt.disableflags = mjDSBL_FRICTIONLOSS | mjDSBL_CONTACT | mjDSBL_SPRING | mjDSBL_DAMPER |
                        mjDSBL_GRAVITY | mjDSBL_ACTUATION;
  if (opt->timestep > 0) m->opt.timestep = opt->timestep;
  int bad = -1;
  for (int a = 0; a < m->nu && bad < 0; a++) {
    mjtNum* range = m->actuator_lengthrange + 2 * a;
    const mjtNum* limit = opt->uselimit ? lrLimit(m, a) : NULL;
    if (!lrSelected(m, a, opt->mode) || (opt->useexisting && range[0] < range[1])) continue;
    if (limit) mju_copy(range, limit, 2);
    else if (!lrSimulate(m, d, a, opt, err, errsz)) bad = a;
  }
  m->opt = save;
  return bad;
}
