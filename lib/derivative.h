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
