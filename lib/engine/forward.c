// forward.c: the forward dynamics pipeline (mj_forward, mj_step and their stages, declared
// in mj.h): position, velocity, actuation, acceleration, the constraint slot, the checks for
// bad numbers, and the actuator model (dynamics, gain, bias, muscles).
#include "engine/forward.h"
#include "engine/history.h"

#include <math.h>
#include <string.h>

#include "engine/smooth.h"
#include "util/util.h"

#define MJ_MAXVAL 1e10  // larger magnitudes count as bad numbers

// ---- checks ---------------------------------------------------------------------------------

// NaN, Inf or huge
int mj_isBad(mjtNum x) { return x != x || x > MJ_MAXVAL || x < -MJ_MAXVAL; }

// the first bad entry of vec counts warning w; as in MuJoCo, unless autoreset is disabled the
// data is reset (clearing every warning) and w counted once more, so after a reset its count
// is 1, and without reset it grows by 2; returns 1 when one was found
static int checkVec(const mjModel* m, mjData* d, const mjtNum* vec, int n, int w) {
  for (int i = 0; i < n; i++) {
    if (!mj_isBad(vec[i])) continue;
    mj_warning(d, w, i);
    if (!(m->opt.disableflags & mjDSBL_AUTORESET)) mj_resetData(m, d);
    mj_warning(d, w, i);
    return 1;
  }
  return 0;
}

// bad qpos
void mj_checkPos(const mjModel* m, mjData* d) { checkVec(m, d, d->qpos, m->nq, mjWARN_BADQPOS); }

// bad qvel
void mj_checkVel(const mjModel* m, mjData* d) { checkVec(m, d, d->qvel, m->nv, mjWARN_BADQVEL); }

// bad qacc: after the reset the forward dynamics is recomputed for the new state
void mj_checkAcc(const mjModel* m, mjData* d) {
  if (checkVec(m, d, d->qacc, m->nv, mjWARN_BADQACC)) mj_forward(m, d);
}

// ---- muscles ----------------------------------------------------------------------------------

// C1 bump on [lo, hi] peaking at mid: two half-quadratic pieces on each side; its slope in
// *slope
static mjtNum bump(mjtNum x, mjtNum lo, mjtNum mid, mjtNum hi, mjtNum* slope) {
  *slope = 0;
  if (x <= lo || x >= hi) return 0;
  if (x < mid) {
    mjtNum half = 0.5 * (lo + mid), w = mid - lo;
    mjtNum y = x < half ? (x - lo) / (0.5 * w) : (mid - x) / (0.5 * w);
    *slope = y / (0.5 * w);
    return x < half ? 0.5 * y * y : 1 - 0.5 * y * y;
  }
  mjtNum half = 0.5 * (mid + hi), w = hi - mid;
  mjtNum y = x < half ? (x - mid) / (0.5 * w) : (hi - x) / (0.5 * w);
  *slope = -y / (0.5 * w);
  return x < half ? 1 - 0.5 * y * y : 0.5 * y * y;
}

// normalized length L, optimal-length scale L0 and peak force F0 of a muscle:
// L0 = (lengthrange span) / (range span), L = range[0] + (len - lengthrange[0]) / L0,
// F0 = force, or scale / acc0 when force < 0
static mjtNum muscleLength(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                           const mjtNum prm[9], mjtNum* L0, mjtNum* F0) {
  *L0 = (lengthrange[1] - lengthrange[0]) / fmax(mjMINVAL, prm[1] - prm[0]);
  *F0 = prm[2] < 0 ? prm[3] / fmax(mjMINVAL, acc0) : prm[2];
  return prm[0] + (len - lengthrange[0]) / fmax(mjMINVAL, *L0);
}

// -F0 FL(L) FV(V) and its slopes by len and vel (NULL: not wanted), and those of the
// velocity slope dvel by len and vel (dvlen, dvvel; NULL: not wanted): FL a bump, FV
// quadratic below 0 and saturating at fvmax above; dL/dlen = 1/L0, dV/dvel = 1/(L0 vmax)
static mjtNum muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                         const mjtNum prm[9], mjtNum* dlen, mjtNum* dvel, mjtNum* dvlen,
                         mjtNum* dvvel) {
  mjtNum L0, F0, lmin = prm[4], lmax = prm[5], vmax = prm[6], fvmax = prm[8];
  mjtNum L = muscleLength(len, lengthrange, acc0, prm, &L0, &F0);
  mjtNum vscale = fmax(mjMINVAL, L0 * vmax), V = vel / vscale;

  // force-length: one bump on [lmin, lmax] peaking at L = 1
  mjtNum dFL, FL = bump(L, lmin, 1, lmax, &dFL);

  // force-velocity: 0 below -1, (V+1)^2 up to 0, fvmax - (c-V)^2/c up to c = fvmax - 1
  mjtNum c = fvmax - 1, FV, dFV = 0, ddFV = 0;
  if (V <= -1) {
    FV = 0;
  } else if (V <= 0) {
    FV = (V + 1) * (V + 1);
    dFV = 2 * (V + 1);
    ddFV = 2;
  } else if (V <= c) {
    FV = fvmax - (c - V) * (c - V) / fmax(mjMINVAL, c);
    dFV = 2 * (c - V) / fmax(mjMINVAL, c);
    ddFV = -2 / fmax(mjMINVAL, c);
  } else {
    FV = fvmax;
  }
  if (dlen) *dlen = -F0 * dFL * FV / fmax(mjMINVAL, L0);
  if (dvel) *dvel = -F0 * FL * dFV / vscale;
  if (dvlen) *dvlen = -F0 * dFL * dFV / vscale / fmax(mjMINVAL, L0);
  if (dvvel) *dvvel = -F0 * FL * ddFV / (vscale * vscale);
  return -F0 * FL * FV;
}

// -F0 FP(L) and its slope by len (NULL: not wanted): zero below 1, fpmax x^2/2 up to
// b = (1 + lmax)/2, then fpmax (1/2 + x), x = (L - 1)/(b - 1) resp. (L - b)/(b - 1):
// continuous with a continuous slope at b
static mjtNum muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                         const mjtNum prm[9], mjtNum* dlen) {
  mjtNum L0, F0, lmax = prm[5], fpmax = prm[7];
  mjtNum L = muscleLength(len, lengthrange, acc0, prm, &L0, &F0);
  mjtNum b = 0.5 * (1 + lmax), span = fmax(mjMINVAL, b - 1);
  if (dlen) *dlen = 0;
  if (L <= 1) return 0;
  if (L <= b) {
    mjtNum x = (L - 1) / span;
    if (dlen) *dlen = -F0 * fpmax * x / span / fmax(mjMINVAL, L0);
    return -F0 * fpmax * 0.5 * x * x;
  }
  mjtNum x = (L - b) / span;
  if (dlen) *dlen = -F0 * fpmax / span / fmax(mjMINVAL, L0);
  return -F0 * fpmax * (0.5 + x);
}

// see mj.h
mjtNum mju_muscleGain(mjtNum len, mjtNum vel, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]) {
  return muscleGain(len, vel, lengthrange, acc0, prm, NULL, NULL, NULL, NULL);
}

// see mj.h
mjtNum mju_muscleBias(mjtNum len, const mjtNum lengthrange[2], mjtNum acc0,
                      const mjtNum prm[9]) {
  return muscleBias(len, lengthrange, acc0, prm, NULL);
}

// muscle actuator i's gain (0 where its gain is not a muscle's) and the slopes wanted (NULL:
// not): of the gain by length and velocity, of the bias by length, of the gain's velocity
// slope by length and velocity; 0 where the gain or bias is not a muscle's (forward.h)
mjtNum mj_muscleSlopes(const mjModel* m, const mjData* d, int i, mjtNum* glen, mjtNum* gvel,
                       mjtNum* blen, mjtNum* vlen, mjtNum* vvel) {
  const mjtNum *lr = m->actuator_lengthrange + 2 * i, acc0 = m->actuator_acc0[i];
  mjtNum len = d->actuator_length[i], vel = d->actuator_velocity[i], gain = 0;
  mjtNum* out[5] = {glen, gvel, blen, vlen, vvel};
  for (int k = 0; k < 5; k++)
    if (out[k]) *out[k] = 0;
  if (m->actuator_gaintype[i] == mjGAIN_MUSCLE)
    gain = muscleGain(len, vel, lr, acc0, m->actuator_gainprm + 10 * i, glen, gvel, vlen, vvel);
  if (blen && m->actuator_biastype[i] == mjBIAS_MUSCLE)
    muscleBias(len, lr, acc0, m->actuator_biasprm + 10 * i, blen);
  return gain;
}

// (ctrl - act) / tau with tau = tau_act (0.5 + 1.5 act) when activating, tau_deact /
// (0.5 + 1.5 act) when deactivating, blended by a quintic smoothstep s(x) over tausmooth,
// x = (c - act)/tausmooth + 1/2 (c, a: ctrl and act clamped to [0, 1]); its slopes by act and
// ctrl (NULL: not wanted): (d(c - act) tau - (c - act) dtau) / tau^2 with
// dtau = (1 - s) dtau_deact + s dtau_act + (tau_act - tau_deact) s'(x) dx,
// s' = 30 x^2 (x - 1)^2, dtau_act/da = 1.5 tau_act0, dtau_deact/da = -1.5 tau_deact / (0.5 + 1.5 a)
static mjtNum muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3], mjtNum* dact,
                             mjtNum* dctrl) {
  mjtNum c = fmin(1, fmax(0, ctrl)), a = fmin(1, fmax(0, act));
  mjtNum tau_act = prm[0] * (0.5 + 1.5 * a), tau_deact = prm[1] / (0.5 + 1.5 * a);
  mjtNum dctl = c - act, tau, s = dctl > 0, ds = 0;
  if (prm[2] < mjMINVAL) {
    tau = dctl > 0 ? tau_act : tau_deact;
  } else {
    mjtNum x = dctl / prm[2] + 0.5;
    s = x <= 0 ? 0 : x >= 1 ? 1 : x * x * x * (3 * x * (2 * x - 5) + 10);
    ds = x <= 0 || x >= 1 ? 0 : 30 * x * x * (x - 1) * (x - 1) / prm[2];
    tau = tau_deact + (tau_act - tau_deact) * s;
  }
  if (dact) {
    // a and c move with act and ctrl inside [0, 1] only
    mjtNum da = act > 0 && act < 1, dc = ctrl > 0 && ctrl < 1, t = fmax(mjMINVAL, tau);
    mjtNum dtau_a = da * ((1 - s) * -1.5 * tau_deact / (0.5 + 1.5 * a) + s * 1.5 * prm[0]);
    mjtNum dtau_dctl = (tau_act - tau_deact) * ds;
    *dact = (-t - dctl * (dtau_a - dtau_dctl)) / (t * t);
    *dctrl = dc * (t - dctl * dtau_dctl) / (t * t);
  }
  return dctl / fmax(mjMINVAL, tau);
}

// see mj.h
mjtNum mju_muscleDynamics(mjtNum ctrl, mjtNum act, const mjtNum prm[3]) {
  return muscleDynamics(ctrl, act, prm, NULL, NULL);
}

// the slopes of muscle dynamics (ctrl - act)/tau by act and by ctrl (forward.h)
void mj_muscleDynamicsSlopes(mjtNum ctrl, mjtNum act, const mjtNum prm[3], mjtNum* dact,
                             mjtNum* dctrl) {
  muscleDynamics(ctrl, act, prm, dact, dctrl);
}

// ---- actuation ------------------------------------------------------------------------------

// 1 when actuator i's group is disabled
int mj_actuatorDisabled(const mjModel* m, int i) {
  int g = m->actuator_group[i];
  return g >= 0 && g < 31 && (m->opt.disableactuator & (1 << g));
}

// activation after one step of act_dot, clamped to actrange when limited: the exact step
// act + act_dot tau (1 - exp(-h/tau)) of a linear filter (filterexact, a DC motor's current
// with tau = te), else Euler's; a DC motor's states are never clamped
mjtNum mj_nextActivation(const mjModel* m, const mjData* d, int i, int adr, mjtNum act_dot) {
  mjtNum act = d->act[adr], h = m->opt.timestep;
  int dyn = m->actuator_dyntype[i];
  if (dyn == mjDYN_FILTEREXACT || dyn == mjDYN_DCMOTOR) {
    mjtNum tau = fmax(mjMINVAL, m->actuator_dynprm[10 * i]);
    act += act_dot * tau * (1 - exp(-h / tau));
  } else {
    act += act_dot * h;
  }
  if (m->actuator_actlimited[i] && dyn != mjDYN_DCMOTOR) {
    const mjtNum* r = m->actuator_actrange + 2 * i;
    act = fmin(r[1], fmax(r[0], act));
  }
  return act;
}

// DC motor i's terminal voltage for its one control u (forward.h): with a controller input
// (pos, vel or ff; the others 0) the torque tau = kp (pos - length) + kd (vel - velocity) + ff
// delivered by current control, V = R/K tau + K velocity (back-EMF compensated), clamped to
// +-Vmax when Vmax > 0; else u itself (voltage).  dv (NULL: not wanted): V's slopes by u,
// length and velocity: R/K (kp, kd or 1), -R/K kp, K - R/K kd; 0 where Vmax clamps
mjtNum mj_dcmotorVoltage(const mjModel* m, const mjData* d, int i, mjtNum u, mjtNum dv[3]) {
  const mjtNum* gp = m->actuator_gainprm + 10 * i;
  int spec = m->actuator_ctrlspec[i];
  mjtNum len = d->actuator_length[i], vel = d->actuator_velocity[i], r = gp[0] / gp[1];
  if (dv) dv[0] = 1, dv[1] = dv[2] = 0;
  if (!(spec & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF))) return u;
  mjtNum pos = spec & mjINPUT_POS ? u : 0, vref = spec & mjINPUT_VEL ? u : 0;
  mjtNum tau = gp[4] * (pos - len) + gp[6] * (vref - vel) + (spec & mjINPUT_FF ? u : 0);
  mjtNum v = r * tau + gp[1] * vel;
  int clamped = gp[7] > 0 && (v < -gp[7] || v > gp[7]);
  if (dv) {
    dv[0] = clamped ? 0 : r * (spec & mjINPUT_POS ? gp[4] : spec & mjINPUT_VEL ? gp[6] : 1);
    dv[1] = clamped ? 0 : -r * gp[4];
    dv[2] = clamped ? 0 : gp[1] - r * gp[6];
  }
  return gp[7] > 0 ? fmin(gp[7], fmax(-gp[7], v)) : v;
}

// act_dot of actuator i's last activation state for control ctrl; a DC motor's current:
// di/dt = (V/R - K/R velocity - i) / te, clamped to +-(di/dt)max when that is positive
static mjtNum actDot(const mjModel* m, const mjData* d, int i, mjtNum ctrl) {
  int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
  const mjtNum* prm = m->actuator_dynprm + 10 * i;
  const mjtNum* gp = m->actuator_gainprm + 10 * i;
  mjtNum didt;
  switch (m->actuator_dyntype[i]) {
    case mjDYN_INTEGRATOR: return ctrl;
    case mjDYN_FILTER:
    case mjDYN_FILTEREXACT: return (ctrl - d->act[adr]) / fmax(mjMINVAL, prm[0]);
    case mjDYN_MUSCLE: return mju_muscleDynamics(ctrl, d->act[adr], prm);
    case mjDYN_DCMOTOR:
      didt = (mj_dcmotorVoltage(m, d, i, ctrl, NULL) - gp[1] * d->actuator_velocity[i]) / gp[0];
      didt = (didt - d->act[adr]) / prm[0];
      return prm[1] > 0 ? fmin(prm[1], fmax(-prm[1], didt)) : didt;
    default: return 0;
  }
}

// control of actuator i, clamped to ctrlrange when limited and clamping is enabled; *slope
// (NULL: not wanted) its slope by ctrl: 0 where clamped, else 1 (forward.h)
mjtNum mj_actuatorCtrl(const mjModel* m, const mjData* d, int i, mjtNum* slope) {
  mjtNum ctrl = d->ctrl[i];
  if (slope) *slope = 1;
  if (m->actuator_ctrllimited[i] && !(m->opt.disableflags & mjDSBL_CLAMPCTRL)) {
    const mjtNum* r = m->actuator_ctrlrange + 2 * i;
    if (slope && (ctrl < r[0] || ctrl > r[1])) *slope = 0;
    ctrl = fmin(r[1], fmax(r[0], ctrl));
  }
  return ctrl;
}

// the input multiplying actuator i's gain: the clamped ctrl without dynamics (a stateless DC
// motor's voltage from it), else the last activation (its next value with actearly; needs
// act_dot)
mjtNum mj_actuatorInput(const mjModel* m, const mjData* d, int i) {
  if (m->actuator_dyntype[i] == mjDYN_DCMOTOR && m->actuator_actnum[i] <= 0)
    return mj_dcmotorVoltage(m, d, i, mj_actuatorCtrl(m, d, i, NULL), NULL);
  if (m->actuator_dyntype[i] == mjDYN_NONE || m->actuator_actnum[i] <= 0)
    return mj_actuatorCtrl(m, d, i, NULL);
  int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
  return m->actuator_actearly[i] ? mj_nextActivation(m, d, i, adr, d->act_dot[adr])
                                 : d->act[adr];
}

// scalar force of actuator i: gain * input + bias, clamped to forcerange when limited.  A DC
// motor's gain is K on its current state, K/R on its voltage without one, its bias then the
// back-EMF -K/R K velocity
static mjtNum actuatorForce(const mjModel* m, const mjData* d, int i) {
  mjtNum len = d->actuator_length[i], vel = d->actuator_velocity[i];
  const mjtNum* gp = m->actuator_gainprm + 10 * i;
  const mjtNum* bp = m->actuator_biasprm + 10 * i;
  const mjtNum* lr = m->actuator_lengthrange + 2 * i;
  mjtNum acc0 = m->actuator_acc0[i];
  mjtNum input = mj_actuatorInput(m, d, i);

  // gain and bias
  mjtNum gain = 0, bias = 0;
  switch (m->actuator_gaintype[i]) {
    case mjGAIN_FIXED: gain = gp[0]; break;
    case mjGAIN_AFFINE: gain = gp[0] + gp[1] * len + gp[2] * vel; break;
    case mjGAIN_MUSCLE: gain = mju_muscleGain(len, vel, lr, acc0, gp); break;
    case mjGAIN_DCMOTOR: gain = m->actuator_actnum[i] ? gp[1] : gp[1] / gp[0]; break;
    default: break;
  }
  switch (m->actuator_biastype[i]) {
    case mjBIAS_AFFINE: bias = bp[0] + bp[1] * len + bp[2] * vel; break;
    case mjBIAS_MUSCLE: bias = mju_muscleBias(len, lr, acc0, bp); break;
    case mjBIAS_DCMOTOR: bias = m->actuator_actnum[i] ? 0 : -gain * gp[1] * vel; break;
    default: break;
  }

  // clamp
  mjtNum force = gain * input + bias;
  if (m->actuator_forcelimited[i]) {
    const mjtNum* r = m->actuator_forcerange + 2 * i;
    force = fmin(r[1], fmax(r[0], force));
  }
  return force;
}

// k = d force / d actuator_velocity of actuator i: gainprm[2] input + biasprm[2] (affine) or
// the muscle's force-velocity slope gvel(length, velocity) times its input; 0 where the force
// is clamped to forcerange.  As in MuJoCo, the input is the raw (unclamped) ctrl for
// actuators without dynamics.  dk (NULL: not wanted) gets k's slopes by that input, the
// length and the velocity (forward.h)
mjtNum mj_actuatorForceVel(const mjModel* m, const mjData* d, int i, mjtNum dk[3]) {
  mjtNum gvel = 0, vlen = 0, vvel = 0;
  if (dk) dk[0] = dk[1] = dk[2] = 0;
  if (m->actuator_forcelimited[i]) {
    const mjtNum* r = m->actuator_forcerange + 2 * i;
    mjtNum f = d->actuator_force[i];
    if (f <= r[0] || f >= r[1]) return 0;
  }
  if (m->actuator_gaintype[i] == mjGAIN_MUSCLE)
    mj_muscleSlopes(m, d, i, NULL, &gvel, NULL, dk ? &vlen : NULL, dk ? &vvel : NULL);
  return mj_forceVelFrom(m, d, i, gvel, vlen, vvel, dk);
}

// d force / d velocity of DC motor i as MuJoCo's implicit integrators take it: with the
// voltage's slope dV = K - kd R/K of a controller (else 0), K (dV - K)/R s through the next
// current (s = 1 - exp(-h/te)), or K dV/R - K^2/R without a current state
static mjtNum dcmotorForceVel(const mjModel* m, int i) {
  const mjtNum *gp = m->actuator_gainprm + 10 * i, te = m->actuator_dynprm[10 * i];
  mjtNum R = gp[0], K = gp[1], dv = 0;
  if (m->actuator_ctrlspec[i] & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF)) dv = K - gp[6] * R / K;
  if (m->actuator_actnum[i]) return K * (dv - K) * (1 - exp(-m->opt.timestep / te)) / R;
  return K * dv / R - K * K / R;
}

// k of mj_actuatorForceVel for an unclamped force, from the muscle's slopes (forward.h)
mjtNum mj_forceVelFrom(const mjModel* m, const mjData* d, int i, mjtNum gvel, mjtNum vlen,
                       mjtNum vvel, mjtNum dk[3]) {
  int nodyn = m->actuator_dyntype[i] == mjDYN_NONE || m->actuator_actnum[i] <= 0;
  mjtNum input = nodyn ? d->ctrl[i] : mj_actuatorInput(m, d, i), k = 0, kin = 0;
  if (m->actuator_gaintype[i] == mjGAIN_AFFINE) kin = m->actuator_gainprm[10 * i + 2];
  if (m->actuator_gaintype[i] == mjGAIN_MUSCLE) kin = gvel;
  if (kin) k += kin * input;
  if (m->actuator_biastype[i] == mjBIAS_AFFINE) k += m->actuator_biasprm[10 * i + 2];
  if (m->actuator_gaintype[i] == mjGAIN_DCMOTOR) k += dcmotorForceVel(m, i);
  if (dk) dk[0] = kin, dk[1] = vlen * input, dk[2] = vvel * input;
  return k;
}

// a tendon with actfrclimited scales the forces of its actuators (tendon transmissions) so
// that their sum lies in its actfrcrange: each force times clamp(sum)/sum, as MuJoCo does
static void clampTendonForce(const mjModel* m, mjData* d) {
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_actfrclimited[t]) continue;
    const mjtNum* r = m->tendon_actfrcrange + 2 * t;
    mjtNum sum = 0;
    for (int i = 0; i < m->nu; i++)
      if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2 * i] == t)
        sum += d->actuator_force[i];
    if (sum >= r[0] && sum <= r[1]) continue;
    mjtNum scale = (sum < r[0] ? r[0] : r[1]) / sum;
    for (int i = 0; i < m->nu; i++)
      if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2 * i] == t)
        d->actuator_force[i] *= scale;
  }
}

// act_dot, actuator_force (scaled into tendon actfrcrange) and qfrc_actuator = moment' force
// (+ gravity compensation routed through actuators), clamped per joint to actfrcrange
void mj_fwdActuation(const mjModel* m, mjData* d) {
  int nu = m->nu, nv = m->nv;
  mju_zero(d->act_dot, m->na);
  mju_zero(d->actuator_force, nu);
  mju_zero(d->qfrc_actuator, nv);

  // nothing at all (not even gravity compensation) without enabled actuators, as in MuJoCo
  if (!nu || m->opt.disableflags & mjDSBL_ACTUATION) return;

  // the controls read: a delayed actuator's from its history buffer at time - delay, d->ctrl
  // pointing to that copy on the stack until the end of this function; a bad one (after the
  // delay, as in MuJoCo): warn, and compute with all controls zero (d->ctrl itself is kept)
  size_t mark = mj_markStack(d);
  mjtNum* ctrl = d->ctrl;
  if (m->nhistory) {
    d->ctrl = mj_stackAlloc(d, (size_t)nu);
    for (int i = 0; i < nu; i++)
      d->ctrl[i] = mj_ctrlDelayed(m, i) ? mj_delayedCtrl(m, d, i) : ctrl[i];
  }
  for (int i = 0; i < nu; i++) {
    if (!mj_isBad(d->ctrl[i])) continue;
    mj_warning(d, mjWARN_BADCTRL, i);
    if (d->ctrl == ctrl) d->ctrl = mj_stackAlloc(d, (size_t)nu);
    mju_zero(d->ctrl, nu);
    break;
  }

  // per actuator: activation derivative, force
  for (int i = 0; i < nu; i++) {
    if (m->actuator_actnum[i] > 0) {
      int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
      d->act_dot[adr] = actDot(m, d, i, mj_actuatorCtrl(m, d, i, NULL));
    }
    if (!mj_actuatorDisabled(m, i)) d->actuator_force[i] = actuatorForce(m, d, i);
  }

  // tendon actuator force ranges, a DC motor's cogging torque A sin(Np length + phase) past
  // them, then qfrc_actuator = moment' force
  clampTendonForce(m, d);
  for (int i = 0; i < nu; i++) {
    const mjtNum* bp = m->actuator_biasprm + 10 * i;
    if (m->actuator_biastype[i] == mjBIAS_DCMOTOR && bp[0] && !mj_actuatorDisabled(m, i))
      d->actuator_force[i] += bp[0] * sin(bp[1] * d->actuator_length[i] + bp[2]);
  }
  for (int i = 0; i < nu; i++) {
    mjtNum f = d->actuator_force[i];
    const mjtNum* moment = d->actuator_moment + d->moment_rowadr[i];
    const int* dof = d->moment_colind + d->moment_rowadr[i];
    if (f)
      for (int k = 0; k < d->moment_rownnz[i]; k++) d->qfrc_actuator[dof[k]] += f * moment[k];
  }

  // joints: gravity compensation through actuators, then the actuator force range
  for (int j = 0; j < m->njnt; j++) {
    int adr = m->jnt_dofadr[j];
    int n = m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : 1;
    if (m->jnt_actgravcomp[j]) mju_addTo(d->qfrc_actuator + adr, d->qfrc_gravcomp + adr, n);
    if (!m->jnt_actfrclimited[j]) continue;
    const mjtNum* r = m->jnt_actfrcrange + 2 * j;
    for (int k = adr; k < adr + n; k++)
      d->qfrc_actuator[k] = fmin(r[1], fmax(r[0], d->qfrc_actuator[k]));
  }
  d->ctrl = ctrl;
  mj_freeStack(d, mark);
}

// ---- stages -----------------------------------------------------------------------------------

// everything that depends on qpos only
void mj_fwdPosition(const mjModel* m, mjData* d) {
  mj_resetArena(d);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_camlight(m, d);
  mj_tendon(m, d);
  mj_crb(m, d);
  mj_tendonArmature(m, d);
  mj_factorM(m, d);
  mj_collision(m, d);
  mj_makeConstraint(m, d);
  mj_transmission(m, d);  // after the contacts, which adhesion needs
}

// everything that depends on qvel: tendon and actuator velocities, body velocities, passive
// and bias forces (tendon armature's included)
void mj_fwdVelocity(const mjModel* m, mjData* d) {
  mju_mulMatVec(d->ten_velocity, d->ten_J, d->qvel, m->ntendon, m->nv);
  for (int i = 0; i < m->nu; i++) {
    const mjtNum* moment = d->actuator_moment + d->moment_rowadr[i];
    const int* dof = d->moment_colind + d->moment_rowadr[i];
    mjtNum v = 0;
    for (int k = 0; k < d->moment_rownnz[i]; k++) v += moment[k] * d->qvel[dof[k]];
    d->actuator_velocity[i] = v;
  }
  mj_comVel(m, d);
  mj_passive(m, d);
  mj_referenceConstraint(m, d);
  mj_rne(m, d, 0, d->qfrc_bias);
  mj_tendonBias(m, d, d->qfrc_bias);
}

// qfrc_smooth = passive - bias + applied + actuator + J' xfrc_applied, qacc_smooth
void mj_fwdAcceleration(const mjModel* m, mjData* d) {
  int nv = m->nv;
  mjtNum* f = d->qfrc_smooth;
  for (int i = 0; i < nv; i++)
    f[i] = d->qfrc_passive[i] - d->qfrc_bias[i] + d->qfrc_applied[i] + d->qfrc_actuator[i];

  // Cartesian forces and torques at the body coms
  for (int b = 1; b < m->nbody; b++) {
    const mjtNum* x = d->xfrc_applied + 6 * b;
    if (x[0] || x[1] || x[2] || x[3] || x[4] || x[5])
      mj_applyFT(m, d, x, x + 3, d->xipos + 3 * b, b, f);
  }
  mj_solveM(m, d, d->qacc_smooth, f, 1);
}

// warmstart and the main solver of m->opt.solver (lib/engine/solver.c), from solver_niter 0,
// island by island unless the island flag is disabled
void mj_solMain(const mjModel* m, mjData* d) { mj_solConstraint(m, d, 0); }

// the constraint stage: without constraint rows qacc = qacc_smooth and no constraint force;
// else the main solver, then noslip when opt.noslip_iterations > 0
void mj_fwdConstraint(const mjModel* m, mjData* d) {
  d->solver_niter = 0;
  d->nisland = 0;
  d->island_niter = NULL;
  if (!d->nefc) {
    mju_copy(d->qacc, d->qacc_smooth, m->nv);
    mju_zero(d->qfrc_constraint, m->nv);
    return;
  }
  mj_solConstraint(m, d, m->opt.noslip_iterations > 0);
}

// ---- timers -----------------------------------------------------------------------------------

// the clock of d->timer (mj.h): none by default, so that steps read no clock at all
double (*mjcb_time)(void) = NULL;

// a clock reading when the timers are on, else 0
static inline double tmStart(void) { return mjcb_time ? mjcb_time() : 0; }

// add the time since `start` to timer t; returns the reading, the start of what follows
static inline double tmEnd(mjData* d, int t, double start) {
  if (!mjcb_time) return 0;
  double now = mjcb_time();
  d->timer[t].duration += now - start;
  d->timer[t].number++;
  return now;
}

// ---- passes -----------------------------------------------------------------------------------

// position and velocity stages from skipstage on, with their sensors and energy unless
// skipped
static void fwdPosVel(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  int energy = m->opt.enableflags & mjENBL_ENERGY;
  double t = tmStart();
  if (skipstage < mjSTAGE_POS) {
    mj_fwdPosition(m, d);
    t = tmEnd(d, mjTIMER_POSITION, t);
    // (the sensor timer only around work: no clock readings for nothing)
    if (!skipsensor) mj_sensorPos(m, d);
    if (energy) mj_energyPos(m, d);
    if (!skipsensor || energy) t = tmEnd(d, mjTIMER_SENSOR, t);
  }
  if (skipstage >= mjSTAGE_VEL) return;
  mj_fwdVelocity(m, d);
  t = tmEnd(d, mjTIMER_VELOCITY, t);
  if (!skipsensor) mj_sensorVel(m, d);
  if (energy) mj_energyVel(m, d);
  if (!skipsensor || energy) tmEnd(d, mjTIMER_SENSOR, t);
}

// actuation, acceleration and constraint stages, with the acceleration sensors unless skipped
static void fwdAcc(const mjModel* m, mjData* d, int skipsensor) {
  double t = tmStart();
  mj_fwdActuation(m, d);
  t = tmEnd(d, mjTIMER_ACTUATION, t);
  mj_fwdAcceleration(m, d);
  t = tmEnd(d, mjTIMER_ACCELERATION, t);
  mj_fwdConstraint(m, d);
  t = tmEnd(d, mjTIMER_CONSTRAINT, t);
  if (!skipsensor) {
    mj_sensorAcc(m, d);
    tmEnd(d, mjTIMER_SENSOR, t);
  }
}

// the stages from skipstage on, in order
void mj_forwardSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  double t = tmStart();
  fwdPosVel(m, d, skipstage, skipsensor);
  fwdAcc(m, d, skipsensor);
  tmEnd(d, mjTIMER_FORWARD, t);
}

// forward dynamics of the current state
void mj_forward(const mjModel* m, mjData* d) { mj_forwardSkip(m, d, mjSTAGE_NONE, 0); }

// the integrator of m->opt.integrator after mj_forward
static void integrate(const mjModel* m, mjData* d, int allow_rk4) {
  switch (m->opt.integrator) {
    case mjINT_RK4:
      if (allow_rk4) {
        mj_RungeKutta(m, d, 4);
        break;
      }
      mj_Euler(m, d);
      break;
    case mjINT_IMPLICIT:
    case mjINT_IMPLICITFAST: mj_implicit(m, d); break;
    default: mj_Euler(m, d); break;
  }
}

// the first part of a step: the checks and the forward pass from skipstage on (the sensors
// unless skipped)
static void stepForward(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  mj_forwardSkip(m, d, skipstage, skipsensor);
}

// the rest of a step after its forward pass: the acceleration check and the integrator (RK4
// only when allowed)
static void stepIntegrate(const mjModel* m, mjData* d, int allow_rk4) {
  mj_checkAcc(m, d);
  if (m->opt.enableflags & mjENBL_FWDINV) mj_compareFwdInv(m, d);
  integrate(m, d, allow_rk4);
}

// checks, forward dynamics from skipstage on (the sensors unless skipped, or kept in history
// buffers: the step's samples are their readings), integration
void mj_stepSkip(const mjModel* m, mjData* d, int skipstage, int skipsensor) {
  double t = tmStart();
  stepForward(m, d, skipstage, skipsensor && !mj_sensorHistory(m));
  stepIntegrate(m, d, 1);
  tmEnd(d, mjTIMER_STEP, t);
}

// one step
void mj_step(const mjModel* m, mjData* d) { mj_stepSkip(m, d, mjSTAGE_NONE, 0); }

// one step without the sensors
void mj_stepNoSensor(const mjModel* m, mjData* d) { mj_stepSkip(m, d, mjSTAGE_NONE, 1); }

// first half: checks, position and velocity stages with their sensors and energy
void mj_step1(const mjModel* m, mjData* d) {
  double t = tmStart();
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  fwdPosVel(m, d, mjSTAGE_NONE, 0);
  tmEnd(d, mjTIMER_STEP, t);
}

// second half: actuation, acceleration, constraints, sensors, check, integration
void mj_step2(const mjModel* m, mjData* d) {
  double t = tmStart();
  fwdAcc(m, d, 0);
  stepIntegrate(m, d, 0);
  tmEnd(d, mjTIMER_STEP, t);
}

// ---- passes that grow the data ----------------------------------------------------------------

// d's state to d->undo (restore 0) or back (restore 1): time, qpos, qvel, act, qacc_warmstart,
// history
static void undoState(const mjModel* m, mjData* d, int restore) {
  struct {
    mjtNum* x;
    int n;
  } part[] = {{&d->time, 1}, {d->qpos, m->nq}, {d->qvel, m->nv}, {d->act, m->na},
              {d->qacc_warmstart, m->nv}, {d->history, m->nhistory}};
  mjtNum* u = d->undo;
  for (int i = 0; i < 6; i++, u += part[i - 1].n)
    memcpy(restore ? part[i].x : u, restore ? u : part[i].x, sizeof(mjtNum) * part[i].n);
}

// grow d for the room passes ran out of since the warning counts `before` (see mj.h)
int mj_growFull(const mjModel* m, mjData* d, const mjWarningStat* before) {
  int con = d->warning[mjWARN_CONTACTFULL].number > before[mjWARN_CONTACTFULL].number;
  int efc = d->warning[mjWARN_CNSTRFULL].number > before[mjWARN_CNSTRFULL].number;
  if (!con && !efc) return 0;
  // twice the room that ran out; constraint rows with contacts (each brings rows)
  return mj_growData(m, d, con ? 2 * d->nconmax : 0, 2 * d->njmax) ? -1 : 1;
}

// run pass from d's state until it raises no CONTACTFULL or CNSTRFULL warning, growing d
// between tries (see mj.h)
int mj_passGrow(const mjModel* m, mjData* d, void (*pass)(const mjModel*, mjData*)) {
  mjWarningStat warn[mjNWARNING];
  memcpy(warn, d->warning, sizeof(warn));
  undoState(m, d, 0);
  for (;;) {
    pass(m, d);
    int grown = mj_growFull(m, d, warn);
    if (grown <= 0) return grown;
    undoState(m, d, 1);
    memcpy(d->warning, warn, sizeof(warn));
  }
}

// the forward pass of a step with its sensors, as a pass for mj_passGrow
static void stepForwardPass(const mjModel* m, mjData* d) { stepForward(m, d, mjSTAGE_NONE, 0); }

// a step with visit(m, d, arg) between its forward pass and its integration (see mj.h); the
// forward pass grows d as mj_passGrow does, and so does the whole step when RK4's stages run
// out of room after the visit (d->undo still holds the step's start state then)
int mj_stepVisit(const mjModel* m, mjData* d,
                 void (*visit)(const mjModel* m, const mjData* d, void* arg), void* arg) {
  mjWarningStat warn[mjNWARNING];
  memcpy(warn, d->warning, sizeof(warn));
  double t = tmStart();
  int grown = mj_passGrow(m, d, stepForwardPass);
  // the visit's time is not the step's
  double v = tmStart();
  visit(m, d, arg);
  t += tmStart() - v;
  stepIntegrate(m, d, 1);
  tmEnd(d, mjTIMER_STEP, t);
  if (grown < 0 || !mj_growFull(m, d, warn)) return grown;
  // RK4 ran out of room: the step again from its start, on grown data
  undoState(m, d, 1);
  memcpy(d->warning, warn, sizeof(warn));
  return mj_passGrow(m, d, mj_step);
}
