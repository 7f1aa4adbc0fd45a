// passive.c: passive forces of the velocity stage (mj_passive, declared in mj.h):
//   qfrc_spring    joint springs toward qpos_spring, tendon springs outside lengthspring
//   qfrc_damper    dof and tendon dampers
//   qfrc_gravcomp  body gravity compensation: -gravcomp mass gravity at each body com
//   qfrc_fluid     the inertia-box fluid model of the computation chapter
//   qfrc_passive   their sum, without the gravity compensation of joints whose actgravcomp
//                  routes it through the actuators
// The ellipsoid fluid model (geom fluidshape) is not implemented: such bodies get the
// inertia-box forces.
#include <math.h>

#include "engine/forward.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- springs and dampers ----------------------------------------------------------------------

// joint springs: hinge/slide -k (q - q_spring); ball and free rotation -k subQuat(q, q_spring);
// free translation -k (p - p_spring)
static void jointSprings(const mjModel* m, mjData* d) {
  for (int j = 0; j < m->njnt; j++) {
    mjtNum k = m->jnt_stiffness[j];
    if (k == 0) continue;
    int qadr = m->jnt_qposadr[j], vadr = m->jnt_dofadr[j];
    const mjtNum* q = d->qpos + qadr;
    const mjtNum* q0 = m->qpos_spring + qadr;
    mjtNum* f = d->qfrc_spring + vadr;
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int i = 0; i < 3; i++) f[i] = -k * (q[i] - q0[i]);
        q += 3, q0 += 3, f += 3;
        // fall through
      case mjJNT_BALL: {
        mjtNum quat[4], dif[3];
        mju_copy4(quat, q);
        mju_normalize4(quat);
        mju_subQuat(dif, quat, q0);
        mju_scl3(f, dif, -k);
        break;
      }
      default:
        f[0] = -k * (q[0] - q0[0]);
        break;
    }
  }
}

// tendon t's length beyond its spring's dead band [lengthspring]: L - upper above it, L - lower
// below it, else 0; *out (NULL: not wanted) its slope by L: 1 outside the band or where the
// band is a point, else 0 (forward.h)
mjtNum mj_tendonStretch(const mjModel* m, const mjData* d, int t, mjtNum* out) {
  mjtNum len = d->ten_length[t], lo = m->tendon_lengthspring[2 * t];
  mjtNum hi = m->tendon_lengthspring[2 * t + 1];
  if (out) *out = len > hi || len < lo || lo == hi;
  return len > hi ? len - hi : len < lo ? len - lo : 0;
}

// tendon springs (dead band [lengthspring]) and dampers, mapped through ten_J
static void tendonSpringsDampers(const mjModel* m, mjData* d, int spring, int damper) {
  int nv = m->nv;
  for (int t = 0; t < m->ntendon; t++) {
    const mjtNum* J = d->ten_J + (size_t)t * nv;
    mjtNum k = spring ? m->tendon_stiffness[t] : 0, b = damper ? m->tendon_damping[t] : 0;

    // spring: -k times the stretch beyond the dead band
    if (k) {
      mjtNum frc = -k * mj_tendonStretch(m, d, t, NULL);
      if (frc) mju_addToScl(d->qfrc_spring, J, frc, nv);
    }

    // damper: -b dL/dt
    if (b) mju_addToScl(d->qfrc_damper, J, -b * d->ten_velocity[t], nv);
  }
}

// ---- gravity compensation ---------------------------------------------------------------------

// qfrc_gravcomp = sum over bodies of J_com' (-gravcomp mass gravity); returns 1 if any
static int gravComp(const mjModel* m, mjData* d) {
  if (m->opt.disableflags & mjDSBL_GRAVITY || mju_norm3(m->opt.gravity) == 0) return 0;
  int any = 0;
  for (int b = 1; b < m->nbody; b++) {
    mjtNum gc = m->body_gravcomp[b];
    if (!gc) continue;
    mjtNum force[3], zero[3] = {0, 0, 0};
    mju_scl3(force, m->opt.gravity, -gc * m->body_mass[b]);
    mj_applyFT(m, d, force, zero, d->xipos + 3 * b, b, d->qfrc_gravcomp);
    any = 1;
  }
  return any;
}

// ---- fluid forces: the inertia-box model ------------------------------------------------------

// sides of the box with the body's mass and principal inertia: b_x = sqrt(6 (Iy + Iz - Ix)/m)
void mj_inertiaBox(const mjModel* m, int b, mjtNum box[3]) {
  const mjtNum* I = m->body_inertia + 3 * b;
  mjtNum mass = m->body_mass[b];
  for (int i = 0; i < 3; i++) {
    mjtNum s = I[(i + 1) % 3] + I[(i + 2) % 3] - I[i];
    box[i] = sqrt(fmax(mjMINVAL, s) / mass * 6);
  }
}

// local velocity of body b's com relative to the medium (rot:lin, in the inertial frame)
void mj_fluidVelocity(const mjModel* m, const mjData* d, int b, mjtNum lvel[6]) {
  mjtNum wind[3];
  mj_objectVelocity(m, d, mjOBJ_BODY, b, lvel, 1);
  mju_mulMatTVec3(wind, d->ximat + 9 * b, m->opt.wind);
  mju_sub3(lvel + 3, lvel + 3, wind);
}

// the force and torque of the medium on a body of inertia box `box` moving at lvel, in its
// inertial frame (rot:lin), and (slope: NULL or 6) each component's derivative by its own
// velocity component:
//   viscous  f = -3 pi beta d v,  t = -pi beta d^3 w,  d = mean side
//   drag     f_i = -rho/2 b_j b_k |v_i| v_i,  t_i = -rho/64 b_i (b_j^4 + b_k^4) |w_i| w_i
//   slopes   -3 pi beta d - rho b_j b_k |v_i|,  -pi beta d^3 - rho/32 b_i (b_j^4 + b_k^4) |w_i|
void mj_inertiaBoxForce(const mjModel* m, const mjtNum box[3], const mjtNum lvel[6],
                        mjtNum lfrc[6], mjtNum slope[6]) {
  mjtNum rho = m->opt.density, beta = m->opt.viscosity;
  mjtNum diam = (box[0] + box[1] + box[2]) / 3;
  for (int i = 0; i < 3; i++) {
    mjtNum bj = box[(i + 1) % 3], bk = box[(i + 2) % 3];
    mjtNum w = lvel[i], v = lvel[3 + i];
    lfrc[i] = -mjPI * beta * diam * diam * diam * w
              - rho / 64 * box[i] * (bj * bj * bj * bj + bk * bk * bk * bk) * fabs(w) * w;
    lfrc[3 + i] = -3 * mjPI * beta * diam * v - rho / 2 * bj * bk * fabs(v) * v;
    if (!slope) continue;
    slope[i] = -mjPI * beta * diam * diam * diam -
               rho / 32 * box[i] * (bj * bj * bj * bj + bk * bk * bk * bk) * fabs(w);
    slope[3 + i] = -3 * mjPI * beta * diam - rho * bj * bk * fabs(v);
  }
}

// qfrc_fluid from every body with mass
static void fluidForces(const mjModel* m, mjData* d) {
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] < mjMINVAL) continue;
    mjtNum box[3], lvel[6], lfrc[6], force[3], torque[3];
    mj_inertiaBox(m, b, box);
    mj_fluidVelocity(m, d, b, lvel);
    mj_inertiaBoxForce(m, box, lvel, lfrc, NULL);
    mju_mulMatVec3(torque, d->ximat + 9 * b, lfrc);
    mju_mulMatVec3(force, d->ximat + 9 * b, lfrc + 3);
    mj_applyFT(m, d, force, torque, d->xipos + 3 * b, b, d->qfrc_fluid);
  }
}

// ---- all passive forces -----------------------------------------------------------------------

// the components, then their sum
void mj_passive(const mjModel* m, mjData* d) {
  int nv = m->nv;
  int spring = !(m->opt.disableflags & mjDSBL_SPRING);
  int damper = !(m->opt.disableflags & mjDSBL_DAMPER);
  mju_zero(d->qfrc_spring, nv);
  mju_zero(d->qfrc_damper, nv);
  mju_zero(d->qfrc_gravcomp, nv);
  mju_zero(d->qfrc_fluid, nv);

  // springs and dampers
  if (spring) jointSprings(m, d);
  if (damper)
    for (int i = 0; i < nv; i++) d->qfrc_damper[i] = -m->dof_damping[i] * d->qvel[i];
  if (spring || damper) tendonSpringsDampers(m, d, spring, damper);

  // gravity compensation and fluid
  int gc = gravComp(m, d);
  int fluid = m->opt.density > 0 || m->opt.viscosity > 0;
  if (fluid) fluidForces(m, d);

  // sum; compensation of actgravcomp joints goes to qfrc_actuator instead
  mju_add(d->qfrc_passive, d->qfrc_spring, d->qfrc_damper, nv);
  if (fluid) mju_addTo(d->qfrc_passive, d->qfrc_fluid, nv);
  if (gc)
    for (int i = 0; i < nv; i++)
      if (!m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_passive[i] += d->qfrc_gravcomp[i];
}
