// derivative.h: the pieces of the analytic derivatives shared by their files (the smooth
// stage and the step in lib/derivative/derivative.c, the constraint solve by the implicit function
// theorem in lib/derivative/derivative_constraint.c); the public mjd_ functions are declared in
// mj.h.
#ifndef MJ_DERIVATIVE_H
#define MJ_DERIVATIVE_H

#include "mj.h"


// the right Jacobian of SO(3) at the rotation vector r (inv: its inverse), 3x3 row-major:
// exp(r + e) = exp(r) exp(Jr(r) e) to first order in e
void mjd_rightJacobian(const mjtNum r[3], mjtNum J[9], int inv);

// the first dof of dof k's body whose cdof turns when dof k moves: k, or the first rotation of
// its ball or free joint (whose body-frame rotations turn one another)
int mjd_firstMoved(const mjModel* m, int k);

// cvel (6 nbody) and cdofdot (6 nv), mj_comVel's outputs, at the velocity vel instead of qvel
void mjd_comVelAt(const mjModel* m, mjData* d, mjtNum* vel, mjtNum* cvel, mjtNum* cdofdot);

// 1 when tendon t is fixed (a linear combination of joint positions: a constant Jacobian)
int mjd_tendonFixed(const mjModel* m, int t);

// 1 when tendon t is spatial and runs straight from site to site (no wrapped geom, no pulley)
int mjd_tendonSitesOnly(const mjModel* m, int t);

// 0 when every constraint row of d (after mj_forward) is differentiated: friction loss, joint
// (hinge, slide) and fixed-tendon limits, joint, fixed-tendon, connect and weld equalities,
// contacts of a sphere, capsule, cylinder, box or mesh with a plane and between spheres and
// capsules, the other convex pairs' by their features or, multiccd's clipped faces, by their
// clipping records (frictionless, pyramidal or elliptic), noslip included; else -1 and a
// message naming the first row that is not
int mjd_checkConstraint(const mjModel* m, const mjData* d, char* err, int errsz);

// Y (column-major nv x ncol: the q columns, the v columns, then the rest) holds on entry G0 =
// d qfrc_smooth - dM qacc and on return d qacc, the derivative of the constrained acceleration
// by the implicit function theorem: (M + J'HJ) d qacc = G0 + the constraint terms
// (derivative_constraint.c); dforce (nefc x ncol column-major; NULL: not wanted) the
// derivative of the rows' forces, djar (the same; NULL: not wanted) that of the residuals
// jar = J qacc - aref.  Writes the cone Hessians contact.H at the solution
void mjd_constraintAcc(const mjModel* m, mjData* d, mjtNum* Y, int ncol, mjtNum* dforce,
                       mjtNum* djar);

// Gq (nv x nv column-major, +=) what the site-only spatial tendons' turning adds to
// d(J_t' f_t)/dq: column k gains dJ_t'/dq_k f[t] + J_t' fv[t] (dJ_t/dq_k qvel), f (ntendon)
// the forces the tendons carry (passive and actuators', held), fv their slopes by the
// tendon's velocity (the J_t' (df/dlen, df/dvel) J_t parts are the caller's)
void mjd_tendonTurn(const mjModel* m, mjData* d, const mjtNum* f, const mjtNum* fv,
                    mjtNum* Gq);

// the slopes by q of site-only spatial tendon t, each NULL when not wanted: vel (nv) of its
// velocity, vel_k = dJ_t/dq_k qvel; dJ (nv x nv column-major) of its Jacobian, column
// k = dJ_t/dq_k
void mjd_tendonSlopes(const mjModel* m, mjData* d, int t, mjtNum* vel, mjtNum* dJ);

// R (nv x nv column-major) with column k = dJ'/dq_k f, the row forces f (nefc) held: f
// nonzero on friction rows only (contacts' and friction loss)
void mjd_frictionSlopes(const mjModel* m, mjData* d, const mjtNum* f, mjtNum* R);

// noslip after the main solver (opt.noslip_iterations > 0, derivative_noslip.c): Y as for
// mjd_constraintAcc (G0 at d->qacc on entry, d qacc on return), dforce likewise (NULL: not
// wanted), by the chain rule through the noslip sweeps the engine took from the main
// solution; d's outputs are left as mj_forward wrote them
void mjd_noslipAcc(const mjModel* m, mjData* d, mjtNum* Y, int ncol, mjtNum* dforce);

// the numbers mjd_noslipAcc takes from d's stack beyond mjd_constraintAcc's
size_t mjd_noslipStack(const mjModel* m, const mjData* d);

// vel = lin T + ang T x (x - o): the velocity at x of the twist T held about o
void mjd_pointVel(mjtNum vel[3], const mjtNum T[6], const mjtNum x[3], const mjtNum o[3]);

// dp, dframe (the frame's three rows, d con->frame) and ddist of contact con (a pair
// mjd_checkConstraint accepts) when geom 1 (mv1) and geom 2 (mv2) move by the twist S about o;
// a multiccd turned copy (con->turn) in d->contact after its pair's first contact
void mjd_contactMotion(const mjModel* m, const mjData* d, const mjContact* con,
                       const mjtNum S[6], const mjtNum o[3], int mv1, int mv2, mjtNum dp[3],
                       mjtNum dframe[9], mjtNum* ddist);

// the basis forces fb (dim: normal, frictions) of the row forces f of contact con whose first
// row has type `type` (pyramid edges summed; linear, so it maps force derivatives too)
void mjd_rowsToBasis(const mjContact* con, int type, const mjtNum* f, mjtNum* fb);

// the nominal RNE's per-body quantities its slopes are built from (mjd_rneComposites), all
// about the bodies' fixed points (their trees' coms): the accelerations, and over each subtree
// the sums of the net forces I A + V x* (I V), the inertias, the maps K (U -> I (U x V) +
// U x* (I V) + V x* (I U): the net force's part linear in a motion U of the velocity's frame)
// and the momenta I V
typedef struct {
  mjtNum* cacc;   // per body: the acceleration twist (6)
  mjtNum* frc;    // per body, subtree sums: net forces (6)
  mjtNum* inert;  // composite inertias (10, as cinert)
  mjtNum* cor;    // maps K (36, column-major)
  mjtNum* mom;    // momenta (6)
} mjdComposite;

// c's arrays on d's stack (64 nbody numbers)
void mjd_compositeAlloc(const mjModel* m, mjData* d, mjdComposite* c);

// c at the velocity v with twists cvel, cdofdot (mj_comVel's at v) and acceleration a (NULL:
// 0), gravity in the accelerations when `gravity`
void mjd_rneComposites(const mjModel* m, const mjData* d, const mjtNum* v, const mjtNum* cvel,
                       const mjtNum* cdofdot, const mjtNum* a, int gravity, mjdComposite* c);

// the vectors of column k (q_k when pos, else v_k) at the nominal sweep (v, cvel, cdofdot, a,
// cacc as mjd_rneComposites): every body b of k's subtree moves with it by
//   dV_b = [pos] S x V_b + U,  dA_b = [pos] S x A_b + U x V_b + Q   (S = cdof_k)
// about its fixed point (derivative.c's mjd_rneDerivative shows why); others do not move
void mjd_columnMotion(const mjModel* m, const mjData* d, int k, int pos, const mjtNum* v,
                      const mjtNum* cvel, const mjtNum* cdofdot, const mjtNum* a,
                      const mjtNum* cacc, mjtNum Q[6], mjtNum U[6]);

// dF (6) = S x* F_X (S NULL for a v column) + Ic_X Q + K_X U: the slope of the net forces
// summed over body X's subtree when all of it moves with the column (Q, U)
void mjd_subtreeForceSlope(const mjdComposite* c, int X, const mjtNum* S, const mjtNum Q[6],
                           const mjtNum U[6], mjtNum dF[6]);

// resq, resv (nv x nv each, column k at + k nv; either NULL) += scl * d rne / d(q_k), d(v_k)
// of the inverse dynamics rne(q, v, a) = M(q) a + c(q, v), where cvel (6 nbody) and cdofdot
// (6 nv) are mj_comVel's outputs at the velocity v and c mjd_rneComposites' at (v, cvel,
// cdofdot, a) (with gravity or not); a position derivative moves everything after dof k by
// the motion cdof_k (the tangent of MuJoCo's qpos perturbation, quaternions rotating about
// local axes).  O(nv * subtree) for all columns
void mjd_rneDerivative(const mjModel* m, mjData* d, const mjdComposite* c, const mjtNum* v,
                       const mjtNum* cvel, const mjtNum* cdofdot, const mjtNum* a, mjtNum scl,
                       mjtNum* resq, mjtNum* resv);

// resq (nv x nv, column k at + k nv, +=) scl dM/dq_k x: the RNE's position slope at rest
// (no velocity, no gravity) with the acceleration x
void mjd_massSlope(const mjModel* m, mjData* d, const mjtNum* x, mjtNum scl, mjtNum* resq);

// the slopes of actuator i's force (after mj_forward) by its length s[0], its velocity s[1],
// and of its gain's input by the activation s[2] and by ctrl_i s[3]; *gain the input's
// factor.  0 when the force has no slope (actuation or the actuator disabled, forcerange
// clamping), else 1.  Joint and fixed-tendon transmissions: d length / dq = the moment
// dk (NULL: not wanted) gets, where it returns 1, the slopes of the implicit integrators' k
// (mj_actuatorForceVel) by its input, the length and the velocity, from the same muscle pass
int mjd_actuatorSlopes(const mjModel* m, const mjData* d, int i, mjtNum* gain, mjtNum s[4],
                       mjtNum dk[3]);

// 0 when every sensor of m is differentiated (derivative_sensor.c), else -1 and a message
// naming the first that is not
int mjd_checkSensor(const mjModel* m, char* err, int errsz);

// the numbers mjd_sensorDeriv takes from d's stack
size_t mjd_sensorStack(const mjModel* m, const mjData* d);

// C = ds/dx (nsensordata x (2 nv + na)) and D = ds/du (nsensordata x nu), row-major, either
// NULL, of the sensors of d's forward pass, from Y = d qacc/d(x, u) (column-major nv x ncol)
// and df = d efc_force/d(x, u) (nefc x ncol), ncol = 2 nv + na + nu; c the RNE's composites
// at the pass (mjd_rneComposites at qvel, cvel, cdof_dot, qacc with gravity)
void mjd_sensorDeriv(const mjModel* m, mjData* d, const mjdComposite* c, const mjtNum* Y,
                     const mjtNum* df, mjtNum* C, mjtNum* D);

#endif
