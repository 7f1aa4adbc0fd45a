// derivative.h: the pieces of the analytic derivatives shared by their files (the smooth
// stage and the step in lib/derivative.c, the constraint solve by the implicit function
// theorem in lib/derivative_constraint.c); the public mjd_ functions are declared in mj.h.
#ifndef MJ_DERIVATIVE_H
#define MJ_DERIVATIVE_H

#include "mj.h"

// res(nv x nv, column k at res + k nv) += scl * d rne / d(q_k) (pos) or d(v_k) (!pos) of the
// inverse dynamics rne(q, v, a) = M(q) a + c(q, v) (gravity in c when `gravity`), where cvel
// (6 nbody) and cdofdot (6 nv) are mj_comVel's outputs at the velocity v; a position
// derivative moves everything after dof k by the motion cdof_k (the tangent of MuJoCo's qpos
// perturbation, quaternions rotating about local axes).  O(nv * subtree) for all columns
void mjd_rneDerivative(const mjModel* m, mjData* d, const mjtNum* v, const mjtNum* cvel,
                       const mjtNum* cdofdot, const mjtNum* a, int gravity, int pos,
                       mjtNum scl, mjtNum* res);

// the right Jacobian of SO(3) at the rotation vector r (inv: its inverse), 3x3 row-major:
// exp(r + e) = exp(r) exp(Jr(r) e) to first order in e
void mjd_rightJacobian(const mjtNum r[3], mjtNum J[9], int inv);

// the first dof of dof k's body whose cdof turns when dof k moves: k, or the first rotation of
// its ball or free joint (whose body-frame rotations turn one another)
int mjd_firstMoved(const mjModel* m, int k);

// 1 when tendon t is fixed (a linear combination of joint positions: a constant Jacobian)
int mjd_tendonFixed(const mjModel* m, int t);

// 0 when every constraint row of d (after mj_forward) is differentiated: friction loss, joint
// (hinge, slide) and fixed-tendon limits, joint, fixed-tendon, connect and weld equalities,
// contacts of a sphere, capsule, cylinder, box or mesh with a plane and between spheres and
// capsules (frictionless, pyramidal or elliptic), no noslip; else -1 and a message naming
// the first row that is not
int mjd_checkConstraint(const mjModel* m, const mjData* d, char* err, int errsz);

// Y (column-major nv x ncol: the q columns, the v columns, then the rest) holds on entry G0 =
// d qfrc_smooth - dM qacc and on return d qacc, the derivative of the constrained acceleration
// by the implicit function theorem: (M + J'HJ) d qacc = G0 + the constraint terms
// (derivative_constraint.c); dforce (nefc x ncol column-major; NULL: not wanted) the
// derivative of the rows' forces.  Writes the cone Hessians contact.H at the solution
void mjd_constraintAcc(const mjModel* m, mjData* d, mjtNum* Y, int ncol, mjtNum* dforce);

// vel = lin T + ang T x (x - o): the velocity at x of the twist T held about o
void mjd_pointVel(mjtNum vel[3], const mjtNum T[6], const mjtNum x[3], const mjtNum o[3]);

// dp, dframe (the frame's three rows, d con->frame) and ddist of contact con (a pair
// mjd_checkConstraint accepts) when geom 1 (mv1) and geom 2 (mv2) move by the twist S about o
void mjd_contactMotion(const mjModel* m, const mjData* d, const mjContact* con,
                       const mjtNum S[6], const mjtNum o[3], int mv1, int mv2, mjtNum dp[3],
                       mjtNum dframe[9], mjtNum* ddist);

// the basis forces fb (dim: normal, frictions) of the row forces f of contact con whose first
// row has type `type` (pyramid edges summed; linear, so it maps force derivatives too)
void mjd_rowsToBasis(const mjContact* con, int type, const mjtNum* f, mjtNum* fb);

// the derivatives dV, dA (6 each; on entry the parent's) of body b's velocity and
// acceleration twists (mj_comVel's cvel, the RNE's cacc) carried through b's joints, all
// about a fixed point, when the dofs of b from `first` on turn by the motion S (NULL: none),
// qacc moves by da (NULL: not), and qvel[vdof] by one (vdof < 0: none); v, cvel, cdofdot
// and a (NULL: 0) are the velocity, twists and acceleration the nominal sweep used
void mjd_bodySweep(const mjModel* m, const mjData* d, int b, const mjtNum* S, int first,
                   const mjtNum* v, const mjtNum* cvel, const mjtNum* cdofdot, const mjtNum* a,
                   const mjtNum* da, int vdof, mjtNum dV[6], mjtNum dA[6]);

// F (6) = the derivative of the net force I A + V x* (I V) of a body of com inertia I with
// twists V, A as they move by dV, dA and (S not NULL) the body by the motion S
void mjd_bodyForceDeriv(const mjtNum I[10], const mjtNum V[6], const mjtNum A[6],
                        const mjtNum* S, const mjtNum dV[6], const mjtNum dA[6], mjtNum F[6]);

// res += S x* (I x) - I (S x x): the slope of the product I x (I a com inertia, x a twist
// held fixed) as the body, and with it I, moves by the motion S about a fixed point
void mjd_movedInertia(const mjtNum I[10], const mjtNum S[6], const mjtNum x[6], mjtNum res[6]);

// the slopes of actuator i's force (after mj_forward) by its length s[0], its velocity s[1],
// and of its gain's input by the activation s[2] and by ctrl_i s[3]; *gain the input's
// factor.  0 when the force has no slope (actuation or the actuator disabled, forcerange
// clamping), else 1.  Joint and fixed-tendon transmissions: d length / dq = the moment
int mjd_actuatorSlopes(const mjModel* m, const mjData* d, int i, mjtNum* gain, mjtNum s[4]);

// 0 when every sensor of m is differentiated (derivative_sensor.c), else -1 and a message
// naming the first that is not
int mjd_checkSensor(const mjModel* m, char* err, int errsz);

// the numbers mjd_sensorDeriv takes from d's stack
size_t mjd_sensorStack(const mjModel* m, const mjData* d);

// C = ds/dx (nsensordata x (2 nv + na)) and D = ds/du (nsensordata x nu), row-major, either
// NULL, of the sensors of d's forward pass, from Y = d qacc/d(x, u) (column-major nv x ncol)
// and df = d efc_force/d(x, u) (nefc x ncol), ncol = 2 nv + na + nu
void mjd_sensorDeriv(const mjModel* m, mjData* d, const mjtNum* Y, const mjtNum* df,
                     mjtNum* C, mjtNum* D);

#endif
