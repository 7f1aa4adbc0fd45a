// passive.c: passive forces of the velocity stage (mj_passive, declared in mj.h):
//   qfrc_spring    joint springs toward qpos_spring, tendon springs outside lengthspring
//   qfrc_damper    dof and tendon dampers
//   qfrc_gravcomp  body gravity compensation: -gravcomp mass gravity at each body com
//   qfrc_fluid     the fluid models of the computation chapter: a body's equivalent inertia
//                  box, or the ellipsoids of its geoms when one of them has
//                  fluidshape="ellipsoid" (geom_fluid)
//   qfrc_adhesion  the pull -delta along the normal of every adhesive contact (geom adhesion;
//                  its rows' aref make the pair a translated friction cone: constraint.c)
//   qfrc_passive   their sum, without the gravity compensation of joints whose actgravcomp
//                  routes it through the actuators
#include <math.h>

#include "engine/forward.h"
#include "engine/model.h"
#include "engine/smooth.h"
#include "util/util.h"

// ---- springs and dampers ----------------------------------------------------------------------

// joint springs of coefficient c = mju_polyCoef(stiffness, stiffnesspoly, .): hinge/slide
// -c(x) x with x = q - q_spring; ball and free rotation -c(r) dif with dif = subQuat(q,
// q_spring), r = |dif|; free translation -c(r) dif with dif = p - p_spring, r = |dif|
static void jointSprings(const mjModel* m, mjData* d) {
  for (int j = 0; j < m->njnt; j++) {
    mjtNum k = m->jnt_stiffness[j];
    const mjtNum* p = m->jnt_stiffnesspoly + mjNPOLY * j;
    if (k == 0 && mju_isZero(p, mjNPOLY)) continue;
    int qadr = m->jnt_qposadr[j], vadr = m->jnt_dofadr[j];
    const mjtNum* q = d->qpos + qadr;
    const mjtNum* q0 = m->qpos_spring + qadr;
    mjtNum* f = d->qfrc_spring + vadr;
    switch (m->jnt_type[j]) {
      case mjJNT_FREE: {
        mjtNum dif[3];
        mju_sub3(dif, q, q0);
        mju_scl3(f, dif, -mju_polyCoef(k, p, mju_norm3(dif), 0));
        q += 3, q0 += 3, f += 3;
      }
        // fall through
      case mjJNT_BALL: {
        mjtNum quat[4], dif[3];
        mju_copy4(quat, q);
        mju_normalize4(quat);
        mju_subQuat(dif, quat, q0);
        mju_scl3(f, dif, -mju_polyCoef(k, p, mju_norm3(dif), 0));
        break;
      }
      default: {
        mjtNum x = q[0] - q0[0];
        f[0] = -x * mju_polyCoef(k, p, x, 0);
        break;
      }
    }
  }
}

// dof dampers -v c(v), c = mju_polyCoef(damping, dampingpoly, v, odd) of the dof's own
// damping with its actuators' (mj_damping)
static void dofDampers(const mjModel* m, mjData* d) {
  for (int i = 0; i < m->nv; i++) {
    mjtNum v = d->qvel[i], poly[mjNPOLY], b = mj_damping(m, mjOBJ_DOF, i, poly);
    d->qfrc_damper[i] = -v * mju_polyCoef(b, poly, v, 1);
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

// tendon t's spring force -x c(x) (x its stretch) and damper force -v c(v) (v its velocity),
// each 0 when disabled, and their slopes (forward.h)
void mj_tendonSpringDamper(const mjModel* m, const mjData* d, int t, mjtNum f[2],
                           mjtNum slope[2]) {
  int spring = !(m->opt.disableflags & mjDSBL_SPRING);
  int damper = !(m->opt.disableflags & mjDSBL_DAMPER);
  const mjtNum* ps = m->tendon_stiffnesspoly + mjNPOLY * t;
  mjtNum pd[mjNPOLY], b = mj_damping(m, mjOBJ_TENDON, t, pd);
  mjtNum k = m->tendon_stiffness[t], out;
  mjtNum x = mj_tendonStretch(m, d, t, &out), v = d->ten_velocity[t];
  f[0] = spring ? -x * mju_polyCoef(k, ps, x, 0) : 0;
  f[1] = damper ? -v * mju_polyCoef(b, pd, v, 1) : 0;
  if (!slope) return;
  slope[0] = spring ? out * mju_polySlope(k, ps, x, 0) : 0;
  slope[1] = damper ? mju_polySlope(b, pd, v, 1) : 0;
}

// tendon springs (dead band [lengthspring]) and dampers, mapped through ten_J
static void tendonSpringsDampers(const mjModel* m, mjData* d) {
  int nv = m->nv;
  for (int t = 0; t < m->ntendon; t++) {
    const mjtNum* J = d->ten_J + (size_t)t * nv;
    mjtNum f[2];
    mj_tendonSpringDamper(m, d, t, f, NULL);
    if (f[0]) mju_addToScl(d->qfrc_spring, J, f[0], nv);
    if (f[1]) mju_addToScl(d->qfrc_damper, J, f[1], nv);
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
static void inertiaBox(const mjModel* m, int b, mjtNum box[3]) {
  const mjtNum* I = m->body_inertia + 3 * b;
  mjtNum mass = m->body_mass[b];
  for (int i = 0; i < 3; i++) {
    mjtNum s = I[(i + 1) % 3] + I[(i + 2) % 3] - I[i];
    box[i] = sqrt(fmax(mjMINVAL, s) / mass * 6);
  }
}

// local velocity (rot:lin) relative to the medium of an object's frame: a body's inertial frame
// (mjOBJ_BODY) or a geom's
static void fluidVelocity(const mjModel* m, const mjData* d, int objtype, int id, mjtNum lvel[6]) {
  const mjtNum *pos, *mat;
  mjtNum wind[3];
  mj_objectFrame(m, d, objtype, id, &pos, &mat);
  mj_objectVelocity(m, d, objtype, id, lvel, 1);
  mju_mulMatTVec3(wind, mat, m->opt.wind);
  mju_sub3(lvel + 3, lvel + 3, wind);
}

// whether body b's geoms move the fluid as ellipsoids (one of them asks for it), not its box
static int fluidEllipsoid(const mjModel* m, int b) {
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++)
    if (m->geom_fluid[mjNFLUID * g] > 0) return 1;
  return 0;
}

// the force and torque of the medium on a body of inertia box `box` moving at lvel, in its
// inertial frame (rot:lin), and (slope: NULL or 6) each component's derivative by its own
// velocity component:
//   viscous  f = -3 pi beta d v,  t = -pi beta d^3 w,  d = mean side
//   drag     f_i = -rho/2 b_j b_k |v_i| v_i,  t_i = -rho/64 b_i (b_j^4 + b_k^4) |w_i| w_i
//   slopes   -3 pi beta d - rho b_j b_k |v_i|,  -pi beta d^3 - rho/32 b_i (b_j^4 + b_k^4) |w_i|
static void inertiaBoxForce(const mjModel* m, const mjtNum box[3], const mjtNum lvel[6],
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

// ---- fluid forces: the ellipsoid model --------------------------------------------------------

// [x]: the cross-product matrix, [x] y = x × y, added times s into the 3x3 block of the
// row-major 6x6 B at (r, c)
static void addCross(mjtNum B[36], int r, int c, const mjtNum x[3], mjtNum s) {
  B[6 * r + c + 1] -= s * x[2], B[6 * r + c + 2] += s * x[1];
  B[6 * (r + 1) + c] += s * x[2], B[6 * (r + 1) + c + 2] -= s * x[0];
  B[6 * (r + 2) + c] -= s * x[1], B[6 * (r + 2) + c + 1] += s * x[0];
}

// -[x] diag(s): the derivative of y × x by y scaled per component, added into B at (r, c)
static void addCrossScaled(mjtNum B[36], int r, int c, const mjtNum x[3], const mjtNum s[3]) {
  B[6 * r + c + 1] += s[1] * x[2], B[6 * r + c + 2] -= s[2] * x[1];
  B[6 * (r + 1) + c] -= s[0] * x[2], B[6 * (r + 1) + c + 2] += s[2] * x[0];
  B[6 * (r + 2) + c] += s[0] * x[1], B[6 * (r + 2) + c + 1] -= s[1] * x[0];
}

// the ellipsoid model's torque and force (rot:lin) on geom g moving at lvel = (w, v) in its
// frame (geom_fluid: c_b, c_s, c_a, c_K, c_M, virtual mass m_v and inertia I_v; semi-axes d,
// V = 4/3 pi d0 d1 d2; rho density, beta viscosity), scaled by its interaction coefficient:
//   added mass  t = p x v + L x w,  f = p x w,  p = rho m_v o v,  L = rho I_v o w
//   Magnus      f += c_M rho V  w x v
//   Kutta       f += c_K rho cos(a) A_p (n x v) x v,  n = a o v,  a_i = (d_j d_k)^2,
//               A_p = pi sqrt(P_d / P_n) the area projected along v, cos(a) = P_n / (|v| P_d),
//               P_n = sum a_i v_i^2, P_d = sum a_i^2 v_i^2
//   drag        f -= (3 pi beta D + rho |v| (c_b A_p + c_s (A_max - A_p))) v,  A_max = pi
//               d_max d_mid, D = 2/3 sum d_i;  t -= (pi beta D^3 + rho |mom|) w,  mom_i = w_i
//               (c_a II_i + c_s (I_max - II_i)), II_i = 8/15 pi d_i max(d_j, d_k)^4, I_max =
//               8/15 pi d_mid d_max^4
// and (B not NULL) d lfrc / d lvel, row-major 6x6; with the Kutta force written s(v) h(v),
// s = c_K rho pi sqrt(P_n / P_d) / |v|, h = P_n v - |v|^2 n:
//   dK = s (2 v n' - 2 n v' + P_n I - |v|^2 diag(a) + h (n / P_n - a^2 o v / P_d - v / |v|^2)')
static void ellipsoidForce(const mjModel* m, int g, const mjtNum lvel[6], mjtNum lfrc[6],
                           mjtNum B[36]) {
  const mjtNum *fl = m->geom_fluid + mjNFLUID * g, *w = lvel, *v = lvel + 3;
  mjtNum rho = m->opt.density, beta = m->opt.viscosity, d[3], p[3], L[3], t[3];
  mjtNum cb = fl[1], cs = fl[2], ca = fl[3], ck = fl[4], cm = fl[5];
  mju_geomSemiAxes(m->geom_type[g], m->geom_size + 3 * g, d);
  mjtNum dmax = fmax(fmax(d[0], d[1]), d[2]), dmin = fmin(fmin(d[0], d[1]), d[2]);
  mjtNum dmid = d[0] + d[1] + d[2] - dmax - dmin, deq = 2.0 / 3.0 * (d[0] + d[1] + d[2]);
  mjtNum volume = 4.0 / 3.0 * mjPI * d[0] * d[1] * d[2], amax = mjPI * dmax * dmid;
  if (B) mju_zero(B, 36);

  // added mass: momenta of the fluid carried along
  for (int i = 0; i < 3; i++) p[i] = rho * fl[6 + i] * v[i], L[i] = rho * fl[9 + i] * w[i];
  mju_cross(lfrc, p, v);
  mju_cross(t, L, w);
  mju_addTo3(lfrc, t);
  mju_cross(lfrc + 3, p, w);

  // Magnus lift
  mjtNum mag = cm * rho * volume, magnus[3];
  mju_cross(magnus, w, v);
  mju_scl3(magnus, magnus, mag);

  // Kutta lift, from the circulation c_K rho cos(a) A_p n x v
  mjtNum a[3], n[3], pn = 0, pd = 0, vv = mju_dot3(v, v), speed = sqrt(vv);
  for (int i = 0; i < 3; i++) {
    mjtNum dd = d[(i + 1) % 3] * d[(i + 2) % 3], dv = dd * v[i];
    a[i] = dd * dd, n[i] = a[i] * v[i];
    pn += dv * dv, pd += (a[i] * a[i]) * (v[i] * v[i]);
  }
  mjtNum aproj = pn > 0 ? mjPI * sqrt(pd / pn) : 0;
  mjtNum cosa = pn > 0 ? pn / (speed * pd) : 0, circ[3], kutta[3];
  mju_cross(circ, n, v);
  mju_scl3(circ, circ, ck * rho * cosa * aproj);
  mju_cross(kutta, circ, v);

  // viscous and quadratic drag of translation and rotation
  mjtNum mom[3], k[3], imax = 8.0 / 15.0 * mjPI * dmid * ((dmax * dmax) * (dmax * dmax));
  for (int i = 0; i < 3; i++) {
    mjtNum e = fmax(d[(i + 1) % 3], d[(i + 2) % 3]);
    mjtNum ii = 8.0 / 15.0 * mjPI * d[i] * ((e * e) * (e * e));
    k[i] = ca * ii + cs * (imax - ii), mom[i] = w[i] * k[i];
  }
  mjtNum nmom = mju_norm3(mom);
  mjtNum clin = beta * (3 * mjPI * deq) + rho * speed * (aproj * cb + cs * (amax - aproj));
  mjtNum cang = beta * (mjPI * deq * deq * deq) + rho * nmom;
  for (int i = 0; i < 3; i++) {
    lfrc[i] -= cang * w[i];
    lfrc[3 + i] += magnus[i] + kutta[i] - clin * v[i];
  }
  mju_scl(lfrc, lfrc, fl[0], 6);
  if (!B) return;

  // added mass and Magnus: cross-product derivatives
  mjtNum rm[3], ri[3];
  for (int i = 0; i < 3; i++) rm[i] = rho * fl[6 + i], ri[i] = rho * fl[9 + i];
  addCross(B, 0, 3, p, 1);
  addCrossScaled(B, 0, 3, v, rm);
  addCross(B, 0, 0, L, 1);
  addCrossScaled(B, 0, 0, w, ri);
  addCross(B, 3, 0, p, 1);
  addCrossScaled(B, 3, 3, w, rm);
  addCross(B, 3, 0, v, -mag);
  addCross(B, 3, 3, w, mag);

  // Kutta lift and translational drag (zero at rest, where neither has a derivative)
  if (pn > 0) {
    mjtNum s = ck * rho * mjPI * sqrt(pn / pd) / speed, h[3], gl[3], gA[3];
    for (int i = 0; i < 3; i++) {
      h[i] = pn * v[i] - vv * n[i];
      gl[i] = n[i] / pn - a[i] * a[i] * v[i] / pd - v[i] / vv;
      gA[i] = aproj * (a[i] * a[i] * v[i] / pd - n[i] / pn);  // grad A_p
    }
    for (int i = 0; i < 3; i++) {
      mjtNum* row = B + 6 * (3 + i) + 3;
      for (int j = 0; j < 3; j++) {
        row[j] += s * (2 * v[i] * n[j] - 2 * n[i] * v[j] + h[i] * gl[j]);
        // -v grad(c_lin)', grad c_lin = rho ((c_b A_p + c_s (A_max - A_p)) v/|v| +
        // |v| (c_b - c_s) grad A_p)
        row[j] -= v[i] * rho * ((aproj * cb + cs * (amax - aproj)) * v[j] / speed +
                                speed * (cb - cs) * gA[j]);
      }
      row[i] += s * (pn - vv * a[i]);
    }
  }
  for (int i = 0; i < 3; i++) B[6 * (3 + i) + 3 + i] -= clin;

  // rotational drag: -c_ang I - rho w (k^2 o w)' / |mom|
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3 && nmom > 0; j++) B[6 * i + j] -= rho * w[i] * k[j] * k[j] * w[j] / nmom;
    B[6 * i + i] -= cang;
  }
  mju_scl(B, B, fl[0], 36);
}

// ---- fluid forces of all bodies ---------------------------------------------------------------

int mj_fluidNext(const mjModel* m, int b, int obj, int* objtype) {
  if (m->body_mass[b] < mjMINVAL) return -1;
  if (!fluidEllipsoid(m, b)) {
    *objtype = mjOBJ_BODY;
    return obj < 0 ? b : -1;
  }
  *objtype = mjOBJ_GEOM;
  for (int g = obj < 0 ? m->body_geomadr[b] : obj + 1;
       g < m->body_geomadr[b] + m->body_geomnum[b]; g++)
    if (m->geom_fluid[mjNFLUID * g] != 0) return g;
  return -1;
}

void mj_fluidObjectForce(const mjModel* m, const mjData* d, int objtype, int id,
                         mjtNum lfrc[6], mjtNum B[36]) {
  mjtNum lvel[6];
  fluidVelocity(m, d, objtype, id, lvel);
  if (objtype == mjOBJ_GEOM) {
    ellipsoidForce(m, id, lvel, lfrc, B);
    return;
  }
  mjtNum box[3], slope[6];
  inertiaBox(m, id, box);
  inertiaBoxForce(m, box, lvel, lfrc, B ? slope : NULL);
  if (!B) return;
  mju_zero(B, 36);
  for (int k = 0; k < 6; k++) B[7 * k] = slope[k];
}

// qfrc_fluid: every fluid object's force and torque, turned into the world at its point
static void fluidForces(const mjModel* m, mjData* d) {
  for (int b = 1; b < m->nbody; b++) {
    int type;
    for (int o = mj_fluidNext(m, b, -1, &type); o >= 0; o = mj_fluidNext(m, b, o, &type)) {
      const mjtNum *pos, *mat;
      mjtNum lfrc[6], force[3], torque[3];
      mj_fluidObjectForce(m, d, type, o, lfrc, NULL);
      mj_objectFrame(m, d, type, o, &pos, &mat);
      mju_mulMatVec3(torque, mat, lfrc);
      mju_mulMatVec3(force, mat, lfrc + 3);
      mj_applyFT(m, d, force, torque, pos, b, d->qfrc_fluid);
    }
  }
}

// ---- adhesion -----------------------------------------------------------------------------------

// qfrc_adhesion: each adhesive contact pulls its geoms together with its adhesion delta,
// qfrc = n'(J2 - J1) (-delta) at the contact point (J_b body b's point Jacobian, n the normal
// from geom 1 to geom 2); 0 when no contact is adhesive
static int adhesionForces(const mjModel* m, mjData* d) {
  int any = 0;
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    if (!con->adhesion || con->exclude > 1) continue;
    int b1 = m->geom_bodyid[con->geom1], b2 = m->geom_bodyid[con->geom2];
    mj_addJacPointDot(m, d, d->qfrc_adhesion, con->pos, b2, con->frame, -con->adhesion);
    mj_addJacPointDot(m, d, d->qfrc_adhesion, con->pos, b1, con->frame, con->adhesion);
    any = 1;
  }
  return any;
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
  mju_zero(d->qfrc_adhesion, nv);
  if (!mj_passiveOn(m)) {
    mju_zero(d->qfrc_passive, nv);
    return;
  }

  // springs and dampers
  if (spring) jointSprings(m, d);
  if (damper) dofDampers(m, d);
  if (spring || damper) tendonSpringsDampers(m, d);

  // gravity compensation, fluid and adhesion
  int gc = gravComp(m, d);
  int fluid = mj_fluidOn(m);
  if (fluid) fluidForces(m, d);
  int adhesion = adhesionForces(m, d);

  // sum; compensation of actgravcomp joints goes to qfrc_actuator instead
  mju_add(d->qfrc_passive, d->qfrc_spring, d->qfrc_damper, nv);
  if (fluid) mju_addTo(d->qfrc_passive, d->qfrc_fluid, nv);
  if (adhesion) mju_addTo(d->qfrc_passive, d->qfrc_adhesion, nv);
  if (gc)
    for (int i = 0; i < nv; i++)
      if (!m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_passive[i] += d->qfrc_gravcomp[i];
}

// both springs and dampers disabled turn every passive force off
int mj_passiveOn(const mjModel* m) {
  return (m->opt.disableflags & (mjDSBL_SPRING | mjDSBL_DAMPER)) !=
         (mjDSBL_SPRING | mjDSBL_DAMPER);
}

// a medium with density or viscosity acting
int mj_fluidOn(const mjModel* m) {
  return mj_passiveOn(m) && (m->opt.density > 0 || m->opt.viscosity > 0);
}
