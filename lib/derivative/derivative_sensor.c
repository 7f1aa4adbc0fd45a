// derivative_sensor.c: the sensor Jacobians C = ds/dx and D = ds/du of the analytic path
// (derivative.h).  The sensors are those of the forward pass at the state x = (dq, v, act)
// (the pass mj_step starts with), so each is differentiated at x from what that pass
// computed and from the derivatives of its outputs the rest of the path has: Y = d qacc /
// d(x, u) and df = d efc_force / d(x, u), column-major nv x ncol and nefc x ncol with
// ncol = 2 nv + na + nu (q columns, v columns, act columns, u columns).
//   One column at a time.  A q column k moves every body b of dof k's subtree rigidly by
// the motion S = cdof_k held about a fixed point (the tree's com, not moving with it): a
// point p of b by dp = S_lin + S_ang x (p - o), b's frame turning by dw = S_ang.  The
// twists' slopes dV (of cvel) and dA (of cacc) about the same fixed points are closed forms
// in the column's vectors (mjd_columnMotion, as the RNE's derivative) in the moving subtree,
// plus qacc's part J_b da everywhere (a sweep of Y's column): a v column moves the velocities
// of the subtree, act and u columns only qacc.  The sensors read them:
//   a frame's velocity at p: v = V_lin + V_ang x (p - o),  dv = dV at p + V_ang x dp
//   its acceleration: a = A at p + w x v,  da = dA at p + A_ang x dp + dw_v x v + w x dv
//   a vector y in a frame R: d(R'y) = R'(dy - dw x y) (local sensors, reference frames)
//   a quaternion q turning by dw: dq = 0.5 (0, dw) q;  subtree com: sum m_i dx_i / M
//   subtree momenta: sum of d(I_i V_i) (the inertia moving with the body), about the origin,
//     from the composite inertias and momenta (subtreeColumn);
//     angmom about the com c: L = H_ang - c x H_lin,  linvel = H_lin / M
//   force, torque: cfrc_int's slope, the subtree sum of d(I A + V x* I V) (the moving part's
//     by mjd_subtreeForceSlope, qacc's I J_b da body by body) minus the constraint wrenches'
//     (forces from df, contact points and frames moving as
//     mjd_contactMotion has them, connect and weld anchors fixed to their bodies)
//   touch: the normal forces' slopes (df: a pyramid's rows summed, else the first row) of
//     the contacts counted (the set held);  joint, tendon and actuator positions and
//     velocities and limit positions and velocities: their constant Jacobian rows;  limit
//     forces: df of the row;  actuator forces by their slopes (mjd_actuatorSlopes), and
//     through the transmission's moments for joint and tendon actuator forces
//   rangefinder: the hit point held on the surface hit, moving with its geom (rangeColumn);
//     camprojection: the pinhole projection of the site's position in the camera frame
//   clock, insidesite and user sensors (zeros without MuJoCo's callback): no slope.
// Position sensors depend on q only, velocity sensors on q and v, acceleration sensors on
// everything.  A sensor clamped at its cutoff has a zero row.  Refused: the geom distance and
// contact sensors, energies, tactile and plugin sensors, camera frames that track,
// joint sensors of ball joints (but ballquat and ballangvel), spatial tendons, actuators on
// other transmissions.
#include "derivative/derivative.h"

#include <math.h>
#include <stdio.h>

#include "engine/constraint.h"
#include "engine/forward.h"
#include "engine/smooth.h"
#include "util/util.h"

// the kinds of columns of (x, u)
enum { COL_Q, COL_V, COL_ACT, COL_U };

// ---- what is differentiated --------------------------------------------------------------------

// 1 when an object of type and id has a frame fixed to a body (a camera that does not track)
static int fixedFrame(const mjModel* m, int type, int id) {
  switch (type) {
    case mjOBJ_BODY: case mjOBJ_XBODY: case mjOBJ_GEOM: case mjOBJ_SITE: return 1;
    case mjOBJ_CAMERA: return m->cam_mode[id] == mjCAMLIGHT_FIXED;
    default: return 0;
  }
}

// 1 when tendon t is fixed or runs straight from site to site
static int straightTendon(const mjModel* m, int t) {
  return mjd_tendonFixed(m, t) || mjd_tendonSitesOnly(m, t);
}

// 1 when sensor s's type (and object) is differentiated
static int sensorDifferentiated(const mjModel* m, int s) {
  int id = m->sensor_objid[s], trn;
  switch (m->sensor_type[s]) {
    case mjSENS_JOINTPOS: case mjSENS_JOINTVEL: case mjSENS_JOINTLIMITPOS:
    case mjSENS_JOINTLIMITVEL: case mjSENS_JOINTLIMITFRC:
      return m->jnt_type[id] == mjJNT_HINGE || m->jnt_type[id] == mjJNT_SLIDE;
    case mjSENS_TENDONLIMITPOS: case mjSENS_TENDONLIMITVEL: case mjSENS_TENDONLIMITFRC:
      return mjd_tendonFixed(m, id);
    case mjSENS_TENDONPOS: case mjSENS_TENDONVEL: case mjSENS_TENDONACTFRC:
      return straightTendon(m, id);
    case mjSENS_ACTUATORPOS: case mjSENS_ACTUATORVEL:
      trn = m->actuator_trntype[id];
      return trn == mjTRN_JOINT || trn == mjTRN_JOINTINPARENT ||
             (trn == mjTRN_TENDON && straightTendon(m, m->actuator_trnid[2 * id]));
    case mjSENS_ACTUATORFRC:
      return m->actuator_trntype[id] != mjTRN_TENDON ||
             straightTendon(m, m->actuator_trnid[2 * id]);
    case mjSENS_FRAMEPOS: case mjSENS_FRAMEQUAT: case mjSENS_FRAMEXAXIS:
    case mjSENS_FRAMEYAXIS: case mjSENS_FRAMEZAXIS: case mjSENS_FRAMELINVEL:
    case mjSENS_FRAMEANGVEL:
      return fixedFrame(m, m->sensor_objtype[s], id) &&
             (m->sensor_refid[s] < 0 || fixedFrame(m, m->sensor_reftype[s], m->sensor_refid[s]));
    case mjSENS_FRAMELINACC: case mjSENS_FRAMEANGACC:
      return fixedFrame(m, m->sensor_objtype[s], id);
    case mjSENS_CAMPROJECTION: return fixedFrame(m, mjOBJ_CAMERA, m->sensor_refid[s]);
    case mjSENS_GEOMDIST: return 1;
    case mjSENS_JOINTACTFRC:
      // qfrc_actuator at the joint: clamped by its actfrcrange, with gravity compensation
      // routed to it, turned by site transmissions or spatial tendons
      if (m->jnt_actfrclimited[id] || m->jnt_actgravcomp[id]) return 0;
      for (int i = 0; i < m->nu; i++)
        if (m->actuator_trntype[i] == mjTRN_SITE ||
            (m->actuator_trntype[i] == mjTRN_TENDON &&
             !mjd_tendonFixed(m, m->actuator_trnid[2 * i])))
          return 0;
      return 1;
    case mjSENS_SUBTREECOM: case mjSENS_SUBTREELINVEL: case mjSENS_SUBTREEANGMOM:
    case mjSENS_VELOCIMETER: case mjSENS_GYRO: case mjSENS_MAGNETOMETER:
    case mjSENS_ACCELEROMETER: case mjSENS_FORCE: case mjSENS_TORQUE: case mjSENS_TOUCH:
    case mjSENS_BALLQUAT: case mjSENS_BALLANGVEL: case mjSENS_CLOCK: case mjSENS_INSIDESITE:
    case mjSENS_USER:
      return 1;
    case mjSENS_RANGEFINDER:
      // on a site, every data field but the surface normal (which turns with the surface's
      // curvature); a camera's rays not yet
      return m->sensor_objtype[s] == mjOBJ_SITE &&
             !(m->sensor_intprm[3 * s] & 1 << mjRAY_NORMAL);
    default:
      return 0;
  }
}

// 0 when every sensor of m is differentiated, else -1 and a message naming the first
int mjd_checkSensor(const mjModel* m, char* err, int errsz) {
  for (int s = 0; s < m->nsensor; s++) {
    if (sensorDifferentiated(m, s)) continue;
    const char* name = mj_id2name(m, mjOBJ_SENSOR, s);
    if (name && name[0]) snprintf(err, errsz, "sensor '%s': not differentiated yet", name);
    else snprintf(err, errsz, "sensor %d: not differentiated yet", s);
    return -1;
  }
  return 0;
}

// the number of sensors of type `type`
static int countSensors(const mjModel* m, int type) {
  int n = 0;
  for (int s = 0; s < m->nsensor; s++) n += m->sensor_type[s] == type;
  return n;
}

// the numbers mjd_sensorDeriv takes from d's stack
size_t mjd_sensorStack(const mjModel* m, const mjData* d) {
  size_t nv = m->nv, nu = m->nu, ns = m->nsensor, nbody = m->nbody;
  size_t ntouch = countSensors(m, mjSENS_TOUCH);
  return ns * (nv + 6) + nu * (nv + 6) + 16 * nbody + ntouch * d->nefc / 2 +
         m->nsensordata + 9 * (size_t)d->ncon + 16;
}

// ---- the work of a column ----------------------------------------------------------------------

// the sensor pass's arrays and the column at hand
typedef struct {
  int kind, idx;            // the column: COL_Q, COL_V (dof idx), COL_ACT, COL_U (its index)
  int bk;                   // q, v columns: the dof's body; else nbody
  const mjtNum* S;          // q columns: the motion cdof_idx of the active bodies; else NULL
  mjtNum Q[6], U[6];        // q, v columns: the active bodies' motion (mjd_columnMotion)
  const mjdComposite* c;    // the nominal sweep's per-body quantities (mjd_rneComposites)
  int* active;              // per body: 1 in the subtree of the column's dof (q, v columns)
  int* above;               // per body: 1 on the column's dof's body's chain above it
  int* need;                // per body: 1 in the subtree of a force or torque sensor's body
  int* readacc;             // per body: 1 when a sensor reads its dacc or a descendant's
  const mjtNum *da, *df;    // the column of Y (d qacc) and of df (d efc_force)
  mjtNum* dacc;             // per body: qacc's part of d cacc, J_b da (6)
  mjtNum* dfrc;             // per body: d cfrc_int (6)
  mjtNum* rows;             // per sensor: the constant Jacobian row of a linear sensor (nv)
  mjtNum* ray;              // per sensor: a rangefinder's surface normal, geom hit, dist (5)
  mjtNum *amom, *aslope;    // per actuator: its moment (nv); force slopes (length, velocity,
                            //   activation, ctrl: 4) and 1 when it has them
  mjtNum* dfa;              // per actuator: the column's force slope
  mjtNum* tvel;             // per tendon: d ten_velocity/dq (nv) of a site-only spatial one
  mjtNum* gdist;            // per sensor: a distance's u = (to - from)/dist, from, to (9)
  int* gbody;               // per sensor: the bodies of from and to (2), -1: beyond cutoff
  int *tadr, *trow;         // touch sensor s's rows trow[tadr[s] .. tadr[s + 1]]
  mjtNum* cf;               // per contact with rows: its force f in its frame (6) and the
                            //   world force F = frame' f[0:3] (3), the column's constants
  int* live;                // per sensor: 0 when it has no slope (a touch sensor without rows)
  int frc, act;             // which sums the sensors need: cfrc_int, actuator forces
} Work;

// the motion S of body b for the column, NULL when it does not move
static const mjtNum* bodyMotion(const Work* w, int b) {
  return w->S && w->active[b] ? w->S : NULL;
}

// the fixed point body b's spatial quantities are held about: its tree's com
static const mjtNum* bodyOrigin(const mjModel* m, const mjData* d, int b) {
  return d->subtree_com + 3 * m->body_rootid[b];
}

// the velocity twist's slope dV = [q] S x V + U (mjd_columnMotion) of a body b of the
// column's active subtree (the others' is zero)
static void bodyVelSlope(const Work* w, const mjData* d, int b, mjtNum dV[6]) {
  const mjtNum* S = bodyMotion(w, b);
  mjtNum t[6];
  mju_copy6(dV, w->U);
  if (S) {
    mju_crossMotion(t, S, d->cvel + 6 * b);
    mju_addTo6(dV, t);
  }
}

// body b's acceleration twist's slope for the column: qacc's J_b da, plus in the active
// subtree [q] S x A + U x V + Q (mjd_columnMotion)
static void bodyAccSlope(const Work* w, const mjData* d, int b, mjtNum dA[6]) {
  const mjtNum* S = bodyMotion(w, b);
  mjtNum t[6];
  mju_copy6(dA, w->dacc + 6 * b);
  if (!w->active[b]) return;
  mju_crossMotion(t, w->U, d->cvel + 6 * b);
  mju_addTo6(dA, t);
  mju_addTo6(dA, w->Q);
  if (S) {
    mju_crossMotion(t, S, w->c->cacc + 6 * b);
    mju_addTo6(dA, t);
  }
}

// the body whose subtree is the part of body b's subtree that moves with the column: b
// (active), the column's dof's body (b above it), or -1 (none)
static int movingSubtree(const Work* w, int b) {
  return w->active[b] ? b : w->above[b] ? w->bk : -1;
}

// dfrc[b] -= sgn d(T + (p - o) x F, F) (bodies the sensors need) for a wrench (force F,
// torque T at point p moving by dp) on body b as cfrc_ext holds it (interaction forces
// subtract the external ones)
static void wrenchDeriv(const mjModel* m, const mjData* d, const Work* w, int b,
                        const mjtNum F[3], const mjtNum dF[3], const mjtNum dT[3],
                        const mjtNum p[3], const mjtNum dp[3], mjtNum sgn) {
  if (b <= 0 || !w->need[b]) return;
  mjtNum rel[3], t[3], dtau[3];
  mju_sub3(rel, p, bodyOrigin(m, d, b));
  mju_cross(dtau, dp, F);
  mju_cross(t, rel, dF);
  mju_addTo3(dtau, t);
  mju_addTo3(dtau, dT);
  mju_addToScl3(w->dfrc + 6 * b, dtau, -sgn);
  mju_addToScl3(w->dfrc + 6 * b + 3, dF, -sgn);
}

// dT: the slope of the torque (mj_weldTorque, linear in each frame and in the force) of the
// weld whose rows start at adr, on bodies b with frames q (mj_eqFrames): from the forces'
// slope df and, in a position column, the bodies' turning by the moving subtree's S,
// dq = [0, ang S] q / 2
static void weldTorqueDeriv(const mjModel* m, const mjData* d, const Work* w, int adr,
                            const int b[2], const mjtNum q[2][4], mjtNum dT[3]) {
  const mjtNum *f = d->efc_force, scl = m->eq_data[11 * d->efc_id[adr] + 10];
  mj_weldTorque(q[0], q[1], scl, w->df + adr + 3, dT);
  for (int s = 0; s < 2; s++) {
    const mjtNum* S = bodyMotion(w, b[s]);
    if (!S) continue;
    mjtNum ws[4] = {0, 0.5 * S[0], 0.5 * S[1], 0.5 * S[2]}, dq[4], t[3];
    mju_mulQuat(dq, ws, q[s]);
    mj_weldTorque(s ? q[0] : dq, s ? dq : q[1], scl, f + adr + 3, t);
    mju_addTo3(dT, t);
  }
}

// dfrc -= the slopes of the constraint wrenches on the bodies (mj_addConstraintWrench):
// contacts (world force frame' f at the contact point, frame and point moving as
// mjd_contactMotion has them; f's slope the basis of df's rows), connect and weld (efc_force
// at anchors fixed to their bodies, the weld's torque by weldTorqueDeriv); a contact on no
// body the sensors need is skipped whole (wrenchDeriv would drop both of its wrenches)
static void constraintWrenchDeriv(const mjModel* m, const mjData* d, const Work* w) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* con = d->contact + i;
    int adr = con->efc_address, b1 = m->geom_bodyid[con->geom1];
    int b2 = m->geom_bodyid[con->geom2], mv1 = bodyMotion(w, b1) != NULL;
    int mv2 = bodyMotion(w, b2) != NULL;
    if (adr < 0 || (!(b1 > 0 && w->need[b1]) && !(b2 > 0 && w->need[b2]))) continue;
    const mjtNum *f = w->cf + 9 * i, *F = f + 6;
    mjtNum df[6] = {0}, dp[3] = {0, 0, 0}, dfr[9], ddist, dF[3], dT[3], t[3];
    mjd_rowsToBasis(con, d->efc_type[adr], w->df + adr, df);
    mju_mulMatTVec3(dF, con->frame, df);
    mju_mulMatTVec3(dT, con->frame, df + 3);
    if (mv1 || mv2) {
      const mjtNum* o = bodyOrigin(m, d, mv1 ? b1 : b2);
      mjd_contactMotion(m, d, con, w->S, o, mv1, mv2, dp, dfr, &ddist);
      mju_mulMatTVec3(t, dfr, f);
      mju_addTo3(dF, t);
      mju_mulMatTVec3(t, dfr, f + 3);
      mju_addTo3(dT, t);
    }
    wrenchDeriv(m, d, w, b2, F, dF, dT, con->pos, dp, 1);
    wrenchDeriv(m, d, w, b1, F, dF, dT, con->pos, dp, -1);
  }
  for (int i = 0; i < d->nefc && d->efc_type[i] == mjCNSTR_EQUALITY; i++) {
    int id = d->efc_id[i], type = m->eq_type[id], b[2];
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) continue;
    mjtNum p[2][3], q[2][4], dp[3], dT[3] = {0, 0, 0};
    const mjtNum* df = w->df + i;
    mj_eqBodies(m, id, b);
    mj_eqFrames(m, d, id, p[0], p[1], q[0], q[1]);
    if (type == mjEQ_WELD) weldTorqueDeriv(m, d, w, i, b, q, dT);
    for (int s = 0; s < 2; s++) {
      const mjtNum* S = bodyMotion(w, b[s]);
      if (S) mjd_pointVel(dp, S, p[s], bodyOrigin(m, d, b[s]));
      else mju_zero3(dp);
      wrenchDeriv(m, d, w, b[s], d->efc_force + i, df, dT, p[s], dp, s ? -1 : 1);
    }
    i += type == mjEQ_WELD ? 5 : 2;
  }
}

// d actuator_velocity_i/dq_k: gear times its spatial tendon's dJ/dq_k v (0 for constant
// moments)
static mjtNum velSlope(const mjModel* m, const Work* w, int i, int k) {
  if (m->actuator_trntype[i] != mjTRN_TENDON) return 0;
  return m->actuator_gear[6 * i] * w->tvel[(size_t)m->actuator_trnid[2 * i] * m->nv + k];
}

// column c of (x, u): the moving subtree's motion (mjd_columnMotion), qacc's part of the
// accelerations' slopes (a sweep), the interaction forces' slopes the sensors need and the
// actuators' force slopes
static void startColumn(const mjModel* m, const mjData* d, Work* w, int c, const mjtNum* Y,
                        const mjtNum* df) {
  int nv = m->nv, nbody = m->nbody, ndx = 2 * nv + m->na;
  w->kind = c < nv ? COL_Q : c < 2 * nv ? COL_V : c < ndx ? COL_ACT : COL_U;
  w->idx = c < nv ? c : c < 2 * nv ? c - nv : c < ndx ? c - 2 * nv : c - ndx;
  w->da = Y + (size_t)c * nv;
  w->df = df ? df + (size_t)c * d->nefc : NULL;
  w->S = w->kind == COL_Q ? d->cdof + 6 * c : NULL;
  w->bk = w->kind <= COL_V ? m->dof_bodyid[w->idx] : nbody;
  if (w->kind <= COL_V) {
    mjd_columnMotion(m, d, w->idx, w->kind == COL_Q, d->qvel, d->cvel, d->cdof_dot, d->qacc,
                     w->c->cacc, w->Q, w->U);
  }

  // the active subtree, the chain above it (the world's included), and the sweep of qacc's
  // part J_b da from the world over the bodies whose part is read
  mju_zero(w->dacc, 6);
  w->active[0] = 0;
  w->above[0] = w->kind <= COL_V;
  for (int b = 1; b < nbody; b++) {
    int p = m->body_parentid[b];
    w->active[b] = b == w->bk || (b > w->bk && w->active[p]);
    w->above[b] = 0;
    if (!w->readacc[b]) continue;
    mju_copy6(w->dacc + 6 * b, w->dacc + 6 * p);
    for (int j = m->body_dofadr[b]; j < m->body_dofadr[b] + m->body_dofnum[b]; j++)
      mju_addToScl6(w->dacc + 6 * b, d->cdof + 6 * j, w->da[j]);
  }
  for (int b = w->bk < nbody ? m->body_parentid[w->bk] : 0; b > 0; b = m->body_parentid[b])
    w->above[b] = 1;

  // interaction forces of the bodies the sensors need: qacc's part I dA less the constraint
  // wrenches' slopes, summed over the subtrees, then the moving part's (mjd_subtreeForceSlope)
  if (w->frc) {
    mjtNum dFk[6], t[6];
    for (int b = 1; b < nbody; b++)
      if (w->need[b]) mju_mulInertVec(w->dfrc + 6 * b, d->cinert + 10 * b, w->dacc + 6 * b);
    constraintWrenchDeriv(m, d, w);
    for (int b = nbody - 1; b > 0; b--)
      if (w->need[b]) mju_addTo6(w->dfrc + 6 * m->body_parentid[b], w->dfrc + 6 * b);
    if (w->kind <= COL_V) mjd_subtreeForceSlope(w->c, w->bk, w->S, w->Q, w->U, dFk);
    for (int b = 1; b < nbody && w->kind <= COL_V; b++) {
      if (!w->need[b] || movingSubtree(w, b) < 0) continue;
      if (w->active[b]) mjd_subtreeForceSlope(w->c, b, w->S, w->Q, w->U, t);
      mju_addTo6(w->dfrc + 6 * b, w->active[b] ? t : dFk);
    }
  }

  // actuator forces: by length (moment) on q, velocity on v, input on act and u columns
  for (int i = 0; i < m->nu && w->act; i++) {
    const mjtNum *sl = w->aslope + 5 * i, *mom = w->amom + (size_t)i * nv;
    int adr = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
    switch (w->kind) {
      case COL_Q:
        w->dfa[i] = sl[0] * mom[w->idx] + sl[1] * velSlope(m, w, i, w->idx);
        break;
      case COL_V: w->dfa[i] = sl[1] * mom[w->idx]; break;
      case COL_ACT: w->dfa[i] = w->idx == adr ? sl[2] : 0; break;
      default: w->dfa[i] = w->idx == i ? sl[3] : 0; break;
    }
  }
}

// ---- frames ------------------------------------------------------------------------------------

// an object's frame and its motion for the column
typedef struct {
  const mjtNum *p, *R;  // origin and orientation (NULL: no frame, the world's)
  mjtNum dp[3], dw[3];  // the origin's displacement and the frame's turn
  mjtNum v[3], w[3];    // the origin's linear and the angular velocity (world)
  mjtNum dv[3], dwv[3]; // their slopes
  int b, moves;         // its body; 1 when the body is in the column's active subtree
} Frame;

// the velocities a frame needs: none (nor their slopes), always, only when it moves (else
// they meet only zeros)
enum { VEL_NONE, VEL_ALWAYS, VEL_MOVING };

// f = the frame of object (type, id) and its motion: dp = S at p, dw = S_ang (moved), v, w
// from cvel (as `vel` asks), dv = dV at p + V_ang x dp, dwv = dV_ang (unless VEL_NONE); all
// slopes 0 outside the active subtree.  0 (f the world's, at rest) for no object
static int frameMotion(const mjModel* m, const mjData* d, const Work* w, int type, int id,
                       int vel, Frame* f) {
  mjtNum t[3], dV[6];
  *f = (Frame){0};
  f->b = mj_objectFrame(m, d, type, id, &f->p, &f->R) - 1;
  if (f->b < 0) {
    f->p = f->R = NULL;
    return 0;
  }
  const mjtNum *S = bodyMotion(w, f->b), *o = bodyOrigin(m, d, f->b);
  const mjtNum* V = d->cvel + 6 * f->b;
  f->moves = w->active[f->b];
  if (vel == VEL_ALWAYS || (vel == VEL_MOVING && f->moves)) {
    mjd_pointVel(f->v, V, f->p, o);
    mju_copy3(f->w, V);
  }
  if (!f->moves) return 1;
  if (S) {
    mjd_pointVel(f->dp, S, f->p, o);
    mju_copy3(f->dw, S);
  }
  if (vel == VEL_NONE) return 1;
  bodyVelSlope(w, d, f->b, dV);
  mjd_pointVel(f->dv, dV, f->p, o);
  mju_cross(t, V, f->dp);
  mju_addTo3(f->dv, t);
  mju_copy3(f->dwv, dV);
  return 1;
}

// g = R'(X - dw x Y): the slope of R'y, y moving by X in a frame R turning by dw (R NULL:
// the world's, g = X)
static void rotated(const mjtNum* R, const mjtNum dw[3], const mjtNum X[3], const mjtNum Y[3],
                    mjtNum g[3]) {
  mjtNum t[3];
  if (!R) {
    mju_copy3(g, X);
    return;
  }
  mju_cross(t, dw, Y);
  mju_sub3(t, X, t);
  mju_mulMatTVec3(g, R, t);
}

// Y = the acceleration of f's origin (A at p + w x v, cacc's gravity included), X its slope
// dA at p + A_ang x dp + dw_v x v + w x dv (dA at p alone, Y not needed, when f does not move)
static void accAt(const mjModel* m, const mjData* d, const Work* w, const Frame* f, mjtNum X[3],
                  mjtNum Y[3]) {
  const mjtNum *A = d->cacc + 6 * f->b, *o = bodyOrigin(m, d, f->b);
  mjtNum t[3];
  mjtNum dA[6];
  bodyAccSlope(w, d, f->b, dA);
  mjd_pointVel(X, dA, f->p, o);
  mju_zero3(Y);
  if (!f->moves) return;
  mjd_pointVel(Y, A, f->p, o);
  mju_cross(t, f->w, f->v);
  mju_addTo3(Y, t);
  mju_cross(t, A, f->dp);
  mju_addTo3(X, t);
  mju_cross(t, f->dwv, f->v);
  mju_addTo3(X, t);
  mju_cross(t, f->w, f->dv);
  mju_addTo3(X, t);
}

// g = 0.5 (0, u) q: the slope of quaternion q turning by u (in the frame q is expressed in)
static void quatTurn(const mjtNum q[4], const mjtNum u[3], mjtNum g[4]) {
  mjtNum h[4] = {0, 0.5 * u[0], 0.5 * u[1], 0.5 * u[2]};
  mju_mulQuat(g, h, q);
}

// frame position, orientation and axis sensors (sensor.c's framePosSensor), out the value:
//   pos R_r'(p - p_r): X = dp - dp_r, Y = p - p_r;  axis R_r' a: X = dw x a, Y = a;
//   quat q_r^-1 q: 0.5 (0, R_r'(dw - dw_r)) out;  each rotated into the reference frame
static void framePosColumn(const mjModel* m, const mjData* d, const Work* w, int s,
                           const mjtNum* out, mjtNum* g) {
  int type = m->sensor_type[s];
  Frame f, r;
  mjtNum X[3], Y[3] = {0, 0, 0}, u[3];
  frameMotion(m, d, w, m->sensor_objtype[s], m->sensor_objid[s], VEL_NONE, &f);
  if (m->sensor_refid[s] < 0 ||
      !frameMotion(m, d, w, m->sensor_reftype[s], m->sensor_refid[s], VEL_NONE, &r))
    frameMotion(m, d, w, mjOBJ_UNKNOWN, 0, VEL_NONE, &r);
  if (type == mjSENS_FRAMEQUAT) {
    mju_sub3(X, f.dw, r.dw);
    rotated(r.R, r.dw, X, Y, u);
    quatTurn(out, u, g);
    return;
  }
  if (type == mjSENS_FRAMEPOS) {
    mju_sub3(X, f.dp, r.dp);
    if (r.R) mju_sub3(Y, f.p, r.p);
  } else {
    int c = type - mjSENS_FRAMEXAXIS;
    mjtNum a[3] = {f.R[c], f.R[3 + c], f.R[6 + c]};
    mju_cross(X, f.dw, a);
    mju_copy3(Y, a);
  }
  rotated(r.R, r.dw, X, Y, g);
}

// frame linear and angular velocity sensors (world frame, or relative to the reference's):
//   linvel res = v - v_r - w_r x (p - p_r),  angvel res = w - w_r,  rotated into R_r
static void frameVelColumn(const mjModel* m, const mjData* d, const Work* w, int s, mjtNum* g) {
  Frame f, r;
  mjtNum X[3], Y[3], rel[3], drel[3], t[3];
  frameMotion(m, d, w, m->sensor_objtype[s], m->sensor_objid[s], VEL_ALWAYS, &f);
  if (m->sensor_refid[s] < 0 ||
      !frameMotion(m, d, w, m->sensor_reftype[s], m->sensor_refid[s], VEL_ALWAYS, &r)) {
    mju_copy3(g, m->sensor_type[s] == mjSENS_FRAMELINVEL ? f.dv : f.dwv);
    return;
  }
  if (m->sensor_type[s] == mjSENS_FRAMELINVEL) {
    mju_sub3(rel, f.p, r.p);
    mju_sub3(drel, f.dp, r.dp);
    mju_sub3(Y, f.v, r.v);
    mju_cross(t, r.w, rel);
    mju_sub3(Y, Y, t);
    mju_sub3(X, f.dv, r.dv);
    mju_cross(t, r.dwv, rel);
    mju_sub3(X, X, t);
    mju_cross(t, r.w, drel);
    mju_sub3(X, X, t);
  } else {
    mju_sub3(Y, f.w, r.w);
    mju_sub3(X, f.dwv, r.dwv);
  }
  rotated(r.R, r.dw, X, Y, g);
}

// ---- the sensors -------------------------------------------------------------------------------

// subtree sensors of body b: com sum m_i dx_i / M, linvel dH_lin / M, angmom about the com
// dH_ang - dc x (M v_c) - c x dH_lin (H the momentum about the origin).  The part X of b's
// subtree that moves (movingSubtree) moves rigidly: about its fixed point o
//   sum m_i dx_i = [q] M_X (S at c_X),  dH = [q] S x* H_X + Ic_X U  (then ang += o x lin)
static void subtreeColumn(const mjModel* m, const mjData* d, const Work* w, int type, int b,
                          mjtNum* g) {
  mjtNum mass = m->body_subtreemass[b], t[3], dc[3] = {0, 0, 0}, dH[6] = {0, 0, 0, 0, 0, 0};
  mass = mass > mjMINVAL ? mass : mjMINVAL;
  const mjtNum* c = d->subtree_com + 3 * b;
  int X = movingSubtree(w, b);
  if (X >= 0) {
    const mjtNum *S = bodyMotion(w, X), *o = bodyOrigin(m, d, X);
    mjtNum sH[6];
    mju_mulInertVec(dH, w->c->inert + 10 * X, w->U);
    if (S) {
      mju_crossForce(sH, S, w->c->mom + 6 * X);
      mju_addTo6(dH, sH);
      mjd_pointVel(dc, S, d->subtree_com + 3 * X, o);
      mju_scl3(dc, dc, m->body_subtreemass[X] / mass);
    }
    mju_cross(t, o, dH + 3);
    mju_addTo3(dH, t);
  }
  switch (type) {
    case mjSENS_SUBTREECOM: mju_copy3(g, dc); break;
    case mjSENS_SUBTREELINVEL: mju_scl3(g, dH + 3, 1 / mass); break;
    default:
      mju_cross(g, dc, d->subtree_linvel + 3 * b);
      mju_scl3(g, g, -mass);
      mju_addTo3(g, dH);
      mju_cross(t, c, dH + 3);
      mju_sub3(g, g, t);
  }
}

// force and torque at a site from its body's cfrc_int F about o (site frame):
//   force R'F_lin,  torque R'(F_ang - (p - o) x F_lin)
static void siteForceColumn(const mjModel* m, const mjData* d, const Work* w, int s,
                            mjtNum* g) {
  int site = m->sensor_objid[s], b = m->site_bodyid[site];
  const mjtNum *F = d->cfrc_int + 6 * b, *dF = w->dfrc + 6 * b, *S = bodyMotion(w, b);
  const mjtNum *p = d->site_xpos + 3 * site, *R = d->site_xmat + 9 * site;
  const mjtNum* o = bodyOrigin(m, d, b);
  mjtNum X[3], Y[3], rel[3], t[3], dp[3] = {0, 0, 0}, dw[3] = {0, 0, 0};
  if (S) {
    mjd_pointVel(dp, S, p, o);
    mju_copy3(dw, S);
  }
  if (m->sensor_type[s] == mjSENS_FORCE) {
    rotated(R, dw, dF + 3, F + 3, g);
    return;
  }
  mju_sub3(rel, p, o);
  mju_cross(t, rel, F + 3);
  mju_sub3(Y, F, t);
  mju_cross(t, dp, F + 3);
  mju_sub3(X, dF, t);
  mju_cross(t, rel, dF + 3);
  mju_sub3(X, X, t);
  rotated(R, dw, X, Y, g);
}

// rangefinder s's data fields (sensor.c's order: dist, dir, origin, point, depth; the normal
// is not differentiated) at distance t (< 0: no hit): the hit h = p + t z stays on the surface
// of the geom hit (normal n), which moves with its body (u its motion at h):
//   n'(dp + dt z + t dz - u) = 0,  dt = -n'(dp + t dz - u) / n'z,  dz = dw x z;
// the origin moves by dp, the point by dp + dt z + t dz, the depth as dt; on a miss only the
// origin moves
static void rangeColumn(const mjModel* m, const mjData* d, const Work* w, int s, mjtNum* g) {
  const mjtNum* ray = w->ray + 5 * s;
  int geom = (int)ray[3], bits = m->sensor_intprm[3 * s], hit = ray[4] >= 0 && geom >= 0;
  mjtNum t = ray[4], dt = 0, z[3], dz[3], x[3], h[3], u[3];
  Frame f;
  frameMotion(m, d, w, mjOBJ_SITE, m->sensor_objid[s], VEL_NONE, &f);
  z[0] = f.R[2], z[1] = f.R[5], z[2] = f.R[8];
  mju_cross(dz, f.dw, z);
  if (hit) {
    mju_copy3(x, f.dp);
    mju_addToScl3(x, dz, t);
    int b = m->geom_bodyid[geom];
    const mjtNum* S = bodyMotion(w, b);
    if (S) {
      mju_copy3(h, f.p);
      mju_addToScl3(h, z, t);
      mjd_pointVel(u, S, h, bodyOrigin(m, d, b));
      mju_sub3(x, x, u);
    }
    mjtNum nz = mju_dot3(ray, z);
    dt = fabs(nz) < mjMINVAL ? 0 : -mju_dot3(ray, x) / nz;
  }
  if (bits & 1 << mjRAY_DIST) *g++ = dt;
  if (bits & 1 << mjRAY_DIR) {
    mju_scl3(g, dz, hit);
    g += 3;
  }
  if (bits & 1 << mjRAY_ORIGIN) {
    mju_copy3(g, f.dp);
    g += 3;
  }
  if (bits & 1 << mjRAY_POINT) {
    mju_copy3(g, f.dp);
    mju_addToScl3(g, z, dt);
    mju_addToScl3(g, dz, t);
    mju_scl3(g, g, hit);
    g += 3;
  }
  if (bits & 1 << mjRAY_DEPTH) *g = dt;
}

// camprojection: the site in the camera frame p = R_c'(p_s - p_c) moves as a frame position
// relative to the camera; with U = u - W/2 = fx p_x / (-p_z), V = v - H/2 = -fy p_y / (-p_z):
//   dU = (fx dp_x + U dp_z) / (-p_z),  dV = (-fy dp_y + V dp_z) / (-p_z)
static void camColumn(const mjModel* m, const mjData* d, const Work* w, int s, const mjtNum* out,
                      mjtNum* g) {
  int cam = m->sensor_refid[s];
  const int* res = m->cam_resolution + 2 * cam;
  Frame f, c;
  mjtNum X[3], Y[3], p[3], dp[3], foc[2];
  frameMotion(m, d, w, mjOBJ_SITE, m->sensor_objid[s], VEL_NONE, &f);
  frameMotion(m, d, w, mjOBJ_CAMERA, cam, VEL_NONE, &c);
  mju_sub3(Y, f.p, c.p);
  mju_sub3(X, f.dp, c.dp);
  rotated(c.R, c.dw, X, Y, dp);
  mju_mulMatTVec3(p, c.R, Y);
  mj_camIntrinsics(m, cam, foc, NULL);
  g[0] = (foc[0] * dp[0] + (out[0] - 0.5 * res[0]) * dp[2]) / -p[2];
  g[1] = (-foc[1] * dp[1] + (out[1] - 0.5 * res[1]) * dp[2]) / -p[2];
}

// the actuator-force sensors: an actuator's force, a joint's sum of moment times force, a
// tendon's sum of its actuators' forces
static mjtNum actuatorColumn(const mjModel* m, const Work* w, int type, int id) {
  if (type == mjSENS_ACTUATORFRC) return w->dfa[id];
  mjtNum sum = 0;
  for (int i = 0; i < m->nu; i++) {
    const mjtNum* mom = w->amom + (size_t)i * m->nv;
    if (type == mjSENS_JOINTACTFRC) sum += mom[m->jnt_dofadr[id]] * w->dfa[i];
    else if (m->actuator_trntype[i] == mjTRN_TENDON && m->actuator_trnid[2 * i] == id)
      sum += w->dfa[i];
  }
  return sum;
}

// a geom distance sensor: the witnesses held to their bodies (the envelope theorem: their
// slide along the surfaces leaves the distance as it is to first order):
// d dist = u'(dp_to - dp_from), u = (to - from)/dist; 0 beyond the cutoff
static mjtNum distColumn(const mjModel* m, const mjData* d, const Work* w, int s) {
  const mjtNum* gd = w->gdist + 9 * s;
  mjtNum res = 0, v[3];
  for (int i = 0; i < 2; i++) {
    int b = w->gbody[2 * s + i];
    const mjtNum* S = b >= 0 ? bodyMotion(w, b) : NULL;
    if (!S) continue;
    mjd_pointVel(v, S, gd + 3 + 3 * i, bodyOrigin(m, d, b));
    res += (i ? 1 : -1) * mju_dot3(gd, v);
  }
  return res;
}

// g (sensor_dim) = the slope of sensor s's outputs along the column (zero on entry)
static void sensorColumn(const mjModel* m, const mjData* d, const Work* w, int s, mjtNum* g) {
  int type = m->sensor_type[s], id = m->sensor_objid[s], stage = m->sensor_needstage[s];
  const mjtNum* out = d->sensordata + m->sensor_adr[s];
  Frame f;
  mjtNum X[3], Y[3], zero[3] = {0, 0, 0};
  if ((stage == mjSTAGE_POS && w->kind != COL_Q) || (stage == mjSTAGE_VEL && w->kind > COL_V))
    return;
  switch (type) {
    case mjSENS_JOINTPOS: case mjSENS_TENDONPOS: case mjSENS_ACTUATORPOS:
    case mjSENS_JOINTLIMITPOS: case mjSENS_TENDONLIMITPOS: case mjSENS_JOINTVEL:
    case mjSENS_TENDONVEL: case mjSENS_ACTUATORVEL: case mjSENS_JOINTLIMITVEL:
    case mjSENS_TENDONLIMITVEL:
      if ((stage == mjSTAGE_POS) == (w->kind == COL_Q))
        g[0] = w->rows[(size_t)s * m->nv + w->idx];
      // a spatial tendon's velocity also turns with q
      else if (w->kind == COL_Q && type == mjSENS_TENDONVEL)
        g[0] = w->tvel[(size_t)id * m->nv + w->idx];
      else if (w->kind == COL_Q && type == mjSENS_ACTUATORVEL)
        g[0] = velSlope(m, w, id, w->idx);
      break;
    case mjSENS_BALLQUAT: {
      int k = w->idx - m->jnt_dofadr[id];
      mjtNum e[4] = {0, 0, 0, 0};
      if (k < 0 || k > 2) break;
      e[1 + k] = 0.5;
      mju_mulQuat(g, out, e);
      break;
    }
    case mjSENS_BALLANGVEL: {
      int k = w->idx - m->jnt_dofadr[id];
      if (w->kind == COL_V && k >= 0 && k < 3) g[k] = 1;
      break;
    }
    case mjSENS_FRAMEPOS: case mjSENS_FRAMEQUAT: case mjSENS_FRAMEXAXIS:
    case mjSENS_FRAMEYAXIS: case mjSENS_FRAMEZAXIS:
      framePosColumn(m, d, w, s, out, g);
      break;
    case mjSENS_FRAMELINVEL: case mjSENS_FRAMEANGVEL: frameVelColumn(m, d, w, s, g); break;
    case mjSENS_VELOCIMETER: case mjSENS_GYRO: case mjSENS_MAGNETOMETER:
      frameMotion(m, d, w, mjOBJ_SITE, id, VEL_MOVING, &f);
      if (type == mjSENS_VELOCIMETER) rotated(f.R, f.dw, f.dv, f.v, g);
      else if (type == mjSENS_GYRO) rotated(f.R, f.dw, f.dwv, f.w, g);
      else rotated(f.R, f.dw, zero, m->opt.magnetic, g);
      break;
    case mjSENS_SUBTREECOM: case mjSENS_SUBTREELINVEL: case mjSENS_SUBTREEANGMOM:
      subtreeColumn(m, d, w, type, id, g);
      break;
    case mjSENS_ACCELEROMETER: case mjSENS_FRAMELINACC:
      frameMotion(m, d, w, type == mjSENS_ACCELEROMETER ? mjOBJ_SITE : m->sensor_objtype[s], id,
                  VEL_MOVING, &f);
      accAt(m, d, w, &f, X, Y);
      rotated(type == mjSENS_ACCELEROMETER ? f.R : NULL, f.dw, X, Y, g);
      break;
    case mjSENS_FRAMEANGACC: {
      mjtNum dA[6];
      frameMotion(m, d, w, m->sensor_objtype[s], id, VEL_NONE, &f);
      bodyAccSlope(w, d, f.b, dA);
      mju_copy3(g, dA);
      break;
    }
    case mjSENS_FORCE: case mjSENS_TORQUE: siteForceColumn(m, d, w, s, g); break;
    case mjSENS_RANGEFINDER: rangeColumn(m, d, w, s, g); break;
    case mjSENS_CAMPROJECTION: camColumn(m, d, w, s, out, g); break;
    case mjSENS_GEOMDIST: g[0] = distColumn(m, d, w, s); break;
    case mjSENS_TOUCH:
      for (int k = w->tadr[s]; k < w->tadr[s + 1]; k++) g[0] += w->df[w->trow[k]];
      break;
    case mjSENS_ACTUATORFRC: case mjSENS_JOINTACTFRC: case mjSENS_TENDONACTFRC:
      g[0] = actuatorColumn(m, w, type, id);
      break;
    case mjSENS_JOINTLIMITFRC: case mjSENS_TENDONLIMITFRC: {
      int row = mj_sensorLimitRow(m, d, s);
      if (row >= 0) g[0] = w->df[row];
      break;
    }
    default: break;
  }
}

// ---- the rows ----------------------------------------------------------------------------------

// the column-independent parts: linear sensors' rows (joint unit rows, tendon Jacobians,
// actuator moments, limit rows: on q for position sensors, on v for velocity sensors), the
// actuators' moments and slopes, the touch sensors' rows, which sums the sensors need, the
// contacts' forces
static void setup(const mjModel* m, mjData* d, Work* w) {
  int nv = m->nv, n = 0;
  mju_zero(w->rows, m->nsensor * nv);
  for (int t = 0; t < m->ntendon; t++) {
    if (mjd_tendonFixed(m, t)) mju_zero(w->tvel + (size_t)t * nv, nv);
    else mjd_tendonSlopes(m, d, t, w->tvel + (size_t)t * nv, NULL);
  }
  w->frc = w->act = 0;
  for (int s = 0; s < m->nsensor; s++) {
    int type = m->sensor_type[s], id = m->sensor_objid[s];
    mjtNum* row = w->rows + (size_t)s * nv;
    w->tadr[s] = n;
    switch (type) {
      case mjSENS_JOINTPOS: case mjSENS_JOINTVEL: row[m->jnt_dofadr[id]] = 1; break;
      case mjSENS_TENDONPOS: case mjSENS_TENDONVEL:
        mju_copy(row, d->ten_J + (size_t)id * nv, nv);
        break;
      case mjSENS_ACTUATORPOS: case mjSENS_ACTUATORVEL: mj_momentRow(m, d, id, row); break;
      case mjSENS_JOINTLIMITPOS: case mjSENS_JOINTLIMITVEL: case mjSENS_TENDONLIMITPOS:
      case mjSENS_TENDONLIMITVEL: {
        int r = mj_sensorLimitRow(m, d, s);
        if (r >= 0) mj_efcRow(m, d, r, row);
        break;
      }
      case mjSENS_FORCE: case mjSENS_TORQUE: w->frc = 1; break;
      case mjSENS_RANGEFINDER: {
        int g;
        w->ray[5 * s + 4] = mj_rangefinder(m, d, id, &g, w->ray + 5 * s);
        w->ray[5 * s + 3] = g;
        break;
      }
      case mjSENS_GEOMDIST: {
        // the nearest pair's witnesses and u = (to - from)/dist (unit, signed by dist)
        int pair[2];
        mjtNum* gd = w->gdist + 9 * s;
        mjtNum dist = mj_sensorGeomPair(m, d, s, pair, gd + 3);
        int near = pair[0] >= 0 && fabs(dist) > mjMINVAL;
        for (int i = 0; i < 2; i++) w->gbody[2 * s + i] = near ? m->geom_bodyid[pair[i]] : -1;
        mju_sub3(gd, gd + 6, gd + 3);
        mju_scl3(gd, gd, near ? 1 / dist : 0);
        break;
      }
      case mjSENS_ACTUATORFRC: case mjSENS_JOINTACTFRC: case mjSENS_TENDONACTFRC:
        w->act = 1;
        break;
      case mjSENS_TOUCH:
        for (int i = 0; i < d->ncon; i++) {
          const mjContact* con = d->contact + i;
          int adr = con->efc_address;
          if (!mj_touchContact(m, d, id, i)) continue;
          int nrow = d->efc_type[adr] == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (con->dim - 1) : 1;
          for (int r = 0; r < nrow; r++) w->trow[n++] = adr + r;
        }
        break;
      default: break;
    }
  }
  w->tadr[m->nsensor] = n;
  // the forces of the contacts with rows, in their frames and the world's (force sensors)
  for (int i = 0; i < d->ncon && w->frc; i++) {
    if (d->contact[i].efc_address < 0) continue;
    mj_contactForce(m, d, i, w->cf + 9 * i);
    mju_mulMatTVec3(w->cf + 9 * i + 6, d->contact[i].frame, w->cf + 9 * i);
  }
  for (int s = 0; s < m->nsensor; s++)
    w->live[s] = m->sensor_type[s] != mjSENS_TOUCH || w->tadr[s + 1] > w->tadr[s];
  for (int b = 0; b < m->nbody; b++) w->need[b] = 0;
  for (int s = 0; s < m->nsensor; s++) {
    int type = m->sensor_type[s];
    if (type == mjSENS_FORCE || type == mjSENS_TORQUE)
      w->need[m->site_bodyid[m->sensor_objid[s]]] = 1;
  }
  for (int b = 1; b < m->nbody; b++) w->need[b] |= w->need[m->body_parentid[b]];

  // the bodies whose qacc part the sensors read (the force sensors' subtrees, acceleration
  // frames) and their ancestors, the sweep's bodies
  for (int b = 0; b < m->nbody; b++) w->readacc[b] = w->need[b];
  for (int s = 0; s < m->nsensor; s++) {
    int type = m->sensor_type[s];
    const mjtNum *p, *R;
    if (type != mjSENS_ACCELEROMETER && type != mjSENS_FRAMELINACC && type != mjSENS_FRAMEANGACC)
      continue;
    int b = mj_objectFrame(m, d, type == mjSENS_ACCELEROMETER ? mjOBJ_SITE : m->sensor_objtype[s],
                           m->sensor_objid[s], &p, &R) - 1;
    if (b > 0) w->readacc[b] = 1;
  }
  for (int b = m->nbody - 1; b > 0; b--)
    w->readacc[m->body_parentid[b]] |= w->readacc[b];
  for (int i = 0; i < m->nu && w->act; i++) {
    mjtNum gain, sl[4], *a = w->aslope + 5 * i;
    mj_momentRow(m, d, i, w->amom + (size_t)i * nv);
    a[4] = mjd_actuatorSlopes(m, d, i, &gain, sl, NULL);
    a[0] = sl[0], a[1] = sl[1], a[2] = gain * sl[2], a[3] = gain * sl[3];
  }
}

// 1 when output k of sensor s is clamped at its cutoff (no slope there)
static int clamped(const mjModel* m, const mjData* d, int s, int k) {
  mjtNum cut = m->sensor_cutoff[s], val = d->sensordata[m->sensor_adr[s] + k];
  int dt = m->sensor_datatype[s];
  return cut > 0 && (dt == mjDATATYPE_REAL || dt == mjDATATYPE_POSITIVE) &&
         m->sensor_type[s] != mjSENS_CONTACT &&
         (val >= cut || (dt == mjDATATYPE_REAL && val <= -cut));
}

// C (nsensordata x ndx) and D (nsensordata x nu), row-major, either NULL, of the sensors of
// d's forward pass from Y = d qacc/d(x, u) and df = d efc_force/d(x, u) (derivative.h)
void mjd_sensorDeriv(const mjModel* m, mjData* d, const mjdComposite* c, const mjtNum* Y,
                     const mjtNum* df, mjtNum* C, mjtNum* D) {
  int nv = m->nv, nu = m->nu, ndx = 2 * nv + m->na, ncol = ndx + nu, ns = m->nsensordata;
  int nbody = m->nbody, ntouch = countSensors(m, mjSENS_TOUCH), stage = mjSTAGE_NONE;
  if (m->opt.disableflags & mjDSBL_SENSOR) {
    if (C) mju_zero(C, ns * ndx);
    if (D) mju_zero(D, ns * nu);
    return;
  }
  size_t mark = mj_markStack(d);
  Work w;
  w.c = c;
  w.dacc = mj_stackAlloc(d, 6 * (size_t)nbody);
  w.dfrc = mj_stackAlloc(d, 6 * (size_t)nbody);
  w.active = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);
  w.above = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);
  w.need = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);
  w.readacc = (int*)mj_stackAlloc(d, (size_t)nbody / 2 + 1);
  w.rows = mj_stackAlloc(d, (size_t)m->nsensor * nv);
  w.ray = mj_stackAlloc(d, 5 * (size_t)m->nsensor);
  w.gdist = mj_stackAlloc(d, 9 * (size_t)m->nsensor);
  w.gbody = (int*)mj_stackAlloc(d, (size_t)m->nsensor + 1);
  w.amom = mj_stackAlloc(d, (size_t)nu * nv);
  w.aslope = mj_stackAlloc(d, 5 * (size_t)nu);
  w.dfa = mj_stackAlloc(d, (size_t)nu);
  w.tvel = mj_stackAlloc(d, (size_t)m->ntendon * nv);
  w.tadr = (int*)mj_stackAlloc(d, (size_t)m->nsensor / 2 + 1);
  w.live = (int*)mj_stackAlloc(d, (size_t)m->nsensor / 2 + 1);
  w.trow = (int*)mj_stackAlloc(d, (size_t)ntouch * d->nefc / 2 + 1);
  w.cf = mj_stackAlloc(d, 9 * (size_t)d->ncon);
  mjtNum* g = mj_stackAlloc(d, (size_t)ns);
  setup(m, d, &w);
  for (int s = 0; s < m->nsensor; s++)
    if (m->sensor_needstage[s] > stage) stage = m->sensor_needstage[s];

  // column by column (every entry of C and D written): position sensors move with q only,
  // velocity sensors with q and v; the sensors that can have a slope
  for (int c = 0; c < ncol; c++) {
    mjtNum* out = c < ndx ? (C ? C + c : NULL) : (D ? D + c - ndx : NULL);
    int ld = c < ndx ? ndx : nu;
    mju_zero(g, ns);
    if ((c < nv || stage > mjSTAGE_POS) && (c < 2 * nv || stage == mjSTAGE_ACC)) {
      startColumn(m, d, &w, c, Y, df);
      for (int s = 0; s < m->nsensor; s++)
        if (w.live[s]) sensorColumn(m, d, &w, s, g + m->sensor_adr[s]);
    }
    for (int r = 0; r < ns && out; r++) out[(size_t)r * ld] = g[r];
  }

  // clamped at the cutoff: no slope
  for (int s = 0; s < m->nsensor; s++) {
    for (int k = 0; k < m->sensor_dim[s]; k++) {
      int r = m->sensor_adr[s] + k;
      if (!clamped(m, d, s, k)) continue;
      if (C) mju_zero(C + (size_t)r * ndx, ndx);
      if (D) mju_zero(D + (size_t)r * nu, nu);
    }
  }
  mj_freeStack(d, mark);
}
